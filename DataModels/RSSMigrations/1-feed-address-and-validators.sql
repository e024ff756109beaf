-- rss refresh: where a feed is fetched from now, and the HTTP validators of its last download.
-- `address` is NULL until a permanent redirect moves the feed; the feed keeps its uniqueID (the
-- URL first subscribed), which is part of every article's ID, so read and starred state survive.
ALTER TABLE feeds ADD COLUMN address TEXT;
ALTER TABLE feeds ADD COLUMN etag TEXT;          -- the ETag response header, sent as If-None-Match
ALTER TABLE feeds ADD COLUMN lastModified TEXT;  -- the Last-Modified header, sent as If-Modified-Since
