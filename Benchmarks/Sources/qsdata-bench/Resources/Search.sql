-- Full-text search for the search workloads and the save with a text index, added to Notes.sql: FTS5 indexes of
-- articles' titles and notes' text, each kept current by triggers (as the examples' schemas do).
CREATE VIRTUAL TABLE articlesSearch USING fts5(title, content='articles', content_rowid='uniqueID');
CREATE TRIGGER articlesSearchInsert AFTER INSERT ON articles BEGIN
    INSERT INTO articlesSearch(rowid, title) VALUES (new.uniqueID, new.title);
END;
CREATE TRIGGER articlesSearchDelete AFTER DELETE ON articles BEGIN
    INSERT INTO articlesSearch(articlesSearch, rowid, title) VALUES ('delete', old.uniqueID, old.title);
END;
CREATE TRIGGER articlesSearchUpdate AFTER UPDATE OF title ON articles WHEN old.title IS NOT new.title BEGIN
    INSERT INTO articlesSearch(articlesSearch, rowid, title) VALUES ('delete', old.uniqueID, old.title);
    INSERT INTO articlesSearch(rowid, title) VALUES (new.uniqueID, new.title);
END;
CREATE VIRTUAL TABLE notesSearch USING fts5(text, content='notes', content_rowid='uniqueID');
CREATE TRIGGER notesSearchInsert AFTER INSERT ON notes BEGIN
    INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
END;
CREATE TRIGGER notesSearchDelete AFTER DELETE ON notes BEGIN
    INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
END;
CREATE TRIGGER notesSearchUpdate AFTER UPDATE OF text ON notes WHEN old.text IS NOT new.text BEGIN
    INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
    INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
END;
