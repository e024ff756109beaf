-- Migration 3: moved feeds and servers that ask to wait.

-- Every address a feed was read from besides its uniqueID (the URL first subscribed): after a
-- permanent redirect, importing the new address finds the subscription instead of adding a
-- second one. Deleted with the feed.
CREATE TABLE feedAddresses (
    uniqueID TEXT PRIMARY KEY,          -- the address
    feedID TEXT NOT NULL
);
CREATE INDEX feedAddressesFeedIndex ON feedAddresses (feedID);
-- Feeds that moved before this migration are known at their current address.
INSERT INTO feedAddresses (uniqueID, feedID) SELECT address, uniqueID FROM feeds WHERE address IS NOT NULL;

-- A host that answered 429 or 503 with Retry-After: its feeds are not fetched before `until`.
CREATE TABLE hostPauses (
    uniqueID TEXT PRIMARY KEY,          -- the host name, lowercased
    until DATE NOT NULL,
    reason TEXT NOT NULL                -- what the server answered, for the summary
);
