-- wrk script for load-benchmark.sh: every request is one incremental notes sync by one of the
-- benchmark's accounts (tokens in the file named by VESPER_TOKENS, one a line): one edited note
-- up (20 note IDs per account, so merges and inserts mix), the account's recent changes down.
local tokens = {}
for line in io.lines(os.getenv("VESPER_TOKENS")) do tokens[#tokens + 1] = line end
local syncToken = os.getenv("VESPER_SYNC_TOKEN")
local counter = 0

function setup(thread)
    thread:set("offset", math.random(1, 1000000))
end

function request()
    counter = counter + 1
    local n = counter + (offset or 0)
    local token = tokens[(n % #tokens) + 1]
    local body = string.format(
        '[{"noteID":%d,"text":"edit %d","textModificationDate":"%s.%03dZ",' ..
        '"creationDate":"2014-06-12T16:40:00.000Z","sortDate":"2014-06-12T16:40:00.000Z"}]',
        1000 + (n % 20), n, os.date("!%Y-%m-%dT%H:%M:%S"), n % 1000)
    return wrk.format("POST", "/api/notes", {
        ["x-zumo-auth"] = token,
        ["x-vesper-synctoken"] = syncToken,
        ["Content-Type"] = "application/json",
    }, body)
end
