-- Migration 2: full-text search. A migration rather than part of RSS.sql so that a
-- database created before search existed gains the index when it is next opened.

-- Full-text search over title, summary and content (ArticleSummary's `search` in RSS.plist). The
-- index reads the text from articles (content=), so it is stored once, and refers to each row by
-- its rowid (uniqueID is TEXT): after a VACUUM, rebuild it (QSStore.rebuildSearchIndex). The
-- triggers keep it right through every write; marking read or starring doesn't touch it, and a
-- re-import touches it only for articles whose text changed.
CREATE VIRTUAL TABLE articlesSearch USING fts5(title, summary, contentHTML, content='articles');
CREATE TRIGGER articlesSearchInsert AFTER INSERT ON articles BEGIN
    INSERT INTO articlesSearch(rowid, title, summary, contentHTML) VALUES (new.rowid, new.title, new.summary, new.contentHTML);
END;
CREATE TRIGGER articlesSearchDelete AFTER DELETE ON articles BEGIN
    INSERT INTO articlesSearch(articlesSearch, rowid, title, summary, contentHTML)
        VALUES ('delete', old.rowid, old.title, old.summary, old.contentHTML);
END;
CREATE TRIGGER articlesSearchUpdate AFTER UPDATE OF title, summary, contentHTML ON articles
WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary OR old.contentHTML IS NOT new.contentHTML BEGIN
    INSERT INTO articlesSearch(articlesSearch, rowid, title, summary, contentHTML)
        VALUES ('delete', old.rowid, old.title, old.summary, old.contentHTML);
    INSERT INTO articlesSearch(rowid, title, summary, contentHTML) VALUES (new.rowid, new.title, new.summary, new.contentHTML);
END;

-- Index the articles already in the database (none in a new one).
INSERT INTO articlesSearch(articlesSearch) VALUES ('rebuild');
