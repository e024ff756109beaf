-- The benchmark database: Vesper's notes schema (tables, lookup tables, indexes)
-- plus an RSS-style articles table for marking articles read and fetching by ID.

CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, truncatedText TEXT, links BLOB, sortDate DATE NOT NULL, thumbnailID TEXT, archived BOOLEAN NOT NULL DEFAULT 0, text TEXT, creationDate DATE NOT NULL, textModificationDate DATE, sortDateModificationDate DATE, archivedModificationDate DATE, tagsModificationDate DATE, attachmentsModificationDate DATE, modificationDate DATE);
CREATE TABLE tags (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, nameModificationDate DATE);
CREATE TABLE attachments (uniqueID TEXT PRIMARY KEY, mimeType TEXT NOT NULL, height INTEGER NOT NULL DEFAULT 0, width INTEGER NOT NULL DEFAULT 0);
CREATE TABLE deletedNotes (uniqueID INTEGER PRIMARY KEY);

CREATE TABLE tagsNotesLookup (tagID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (tagID, noteID));
CREATE TABLE attachmentsNotesLookup (attachmentID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (attachmentID, noteID));

CREATE INDEX archivedIndex ON notes (archived);
CREATE INDEX sortDateIndex ON notes (sortDate);
CREATE INDEX tagsNoteIDIndex ON tagsNotesLookup (noteID);
CREATE INDEX attachmentsNoteIDIndex ON attachmentsNotesLookup (noteID);

CREATE TABLE articles (uniqueID INTEGER PRIMARY KEY, feedID TEXT NOT NULL, title TEXT NOT NULL, url TEXT NOT NULL, datePublished DATE NOT NULL, read BOOLEAN NOT NULL DEFAULT 0, starred BOOLEAN NOT NULL DEFAULT 0);
CREATE INDEX articlesFeedIndex ON articles (feedID);
CREATE INDEX articlesUnreadIndex ON articles (read);
