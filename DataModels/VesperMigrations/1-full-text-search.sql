-- Migration 1: full-text search. A migration rather than part of Vesper.sql so that a
-- database created before search existed gains the index when it is next opened.

-- Full-text search over the notes' text (VSTimelineNote's `search` in Vesper.plist). The index
-- reads the text from notes (content=), so it is stored once; these triggers keep it right
-- through every write, bulk updates and deletes included, at no extra statement. Updates that
-- leave the text alone (archiving, sync dates) don't touch the index.
CREATE VIRTUAL TABLE IF NOT EXISTS notesSearch USING fts5(text, content='notes', content_rowid='uniqueID');
CREATE TRIGGER IF NOT EXISTS notesSearchInsert AFTER INSERT ON notes BEGIN
    INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
END;
CREATE TRIGGER IF NOT EXISTS notesSearchDelete AFTER DELETE ON notes BEGIN
    INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
END;
CREATE TRIGGER IF NOT EXISTS notesSearchUpdate AFTER UPDATE OF text ON notes WHEN old.text IS NOT new.text BEGIN
    INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
    INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
END;

-- Index the notes already in the database (none in a new one).
INSERT INTO notesSearch(notesSearch) VALUES ('rebuild');
