-- The RSS reader example's database. Run once, when the database is created.
-- Every article belongs to one feed; read and starred are the user's state and are never
-- written by the importer (ArticleContent has no such columns), so re-importing keeps them.
-- Later changes are the numbered files in RSSMigrations/, run once each after this file.

CREATE TABLE feeds (
    uniqueID TEXT PRIMARY KEY,          -- the subscription URL
    title TEXT,
    homePageURL TEXT,
    summary TEXT,
    iconURL TEXT,
    folder TEXT                         -- OPML folder path, "/"-separated
);

CREATE TABLE articles (
    uniqueID TEXT PRIMARY KEY,          -- FeedParser's stable ID: feed URL + guid/link/title+date
    feedID TEXT NOT NULL,
    title TEXT,
    url TEXT,
    externalURL TEXT,
    contentHTML TEXT,
    summary TEXT,
    imageURL TEXT,
    datePublished DATE,
    dateModified DATE,
    read BOOLEAN NOT NULL DEFAULT 0,
    starred BOOLEAN NOT NULL DEFAULT 0
);

-- Per-feed lists, newest first, and deleting a feed's articles.
CREATE INDEX articlesFeedDateIndex ON articles (feedID, datePublished);
-- Unread counts per feed and unread lists: a partial index holds only the unread rows, so it
-- stays small as articles are read. Queries must say `read = 0` for SQLite to use it. `read`
-- is in the key only so that counting unread articles per feed never reads the table.
CREATE INDEX articlesUnreadIndex ON articles (feedID, datePublished, read) WHERE read = 0;
-- The starred list.
CREATE INDEX articlesStarredIndex ON articles (datePublished) WHERE starred = 1;
-- Deleting old read articles.
CREATE INDEX articlesDateIndex ON articles (datePublished);

CREATE TABLE authors (
    uniqueID TEXT PRIMARY KEY,          -- hash of name, url and email: one row per person
    name TEXT,
    url TEXT,
    email TEXT,
    avatarURL TEXT
);

CREATE TABLE authorsArticlesLookup (
    articleID TEXT NOT NULL,
    authorID TEXT NOT NULL,
    ix INTEGER NOT NULL,
    PRIMARY KEY (authorID, articleID)
) WITHOUT ROWID;                        -- the primary key is the table: one B-tree less per row
CREATE INDEX authorsArticlesLookupArticleIndex ON authorsArticlesLookup (articleID);
