-- The Vesper notes schema, run once when a database is created. The data model that reads
-- it is Vesper.plist. Dates are stored as seconds since 1970 (REAL).

-- Notes: read by VSNote (every column) and VSTimelineNote (the timeline's six).
-- modificationDate is the local modification date: non-NULL means "changed here, upload me".
CREATE TABLE IF NOT EXISTS notes (
    uniqueID INTEGER NOT NULL PRIMARY KEY,
    text TEXT NOT NULL DEFAULT '',
    truncatedText TEXT,
    links BLOB,
    thumbnailID TEXT,
    archived BOOLEAN NOT NULL DEFAULT 0,
    creationDate DATE NOT NULL,
    sortDate DATE NOT NULL,
    textModificationDate DATE,
    sortDateModificationDate DATE,
    archivedModificationDate DATE,
    tagsModificationDate DATE,
    attachmentsModificationDate DATE,
    modificationDate DATE
);

-- Tags: uniqueID is the name with whitespace collapsed and lower-cased, so a tag can't be
-- duplicated by case or spacing; the name keeps the user's capitalisation.
CREATE TABLE IF NOT EXISTS tags (
    uniqueID TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    nameModificationDate DATE
);

-- Attachments: metadata only; the files live in the attachments/ folder beside the database.
CREATE TABLE IF NOT EXISTS attachments (
    uniqueID TEXT NOT NULL PRIMARY KEY,
    mimeType TEXT NOT NULL,
    height INTEGER NOT NULL DEFAULT 0,
    width INTEGER NOT NULL DEFAULT 0
);

-- IDs of notes deleted here, for sync to tell the server. Not part of the data model.
CREATE TABLE IF NOT EXISTS deletedNotes (uniqueID INTEGER NOT NULL PRIMARY KEY);

-- Ordered lookup tables for VSNote.tags and VSNote.attachments.
CREATE TABLE IF NOT EXISTS tagsNotesLookup (
    tagID TEXT NOT NULL,
    noteID INTEGER NOT NULL,
    ix INTEGER NOT NULL,
    PRIMARY KEY (tagID, noteID)
);
CREATE TABLE IF NOT EXISTS attachmentsNotesLookup (
    attachmentID TEXT NOT NULL,
    noteID INTEGER NOT NULL,
    ix INTEGER NOT NULL,
    PRIMARY KEY (attachmentID, noteID)
);

-- Every delete from notes records the ID in deletedNotes. A trigger runs inside the deleting
-- statement, so the record commits or rolls back with the delete and its lookup rows.
CREATE TRIGGER IF NOT EXISTS notesDeletedRecorder AFTER DELETE ON notes
BEGIN
    INSERT OR IGNORE INTO deletedNotes (uniqueID) VALUES (old.uniqueID);
END;

-- The timeline sorts by sortDate and hides archived notes; sync selects by modificationDate;
-- fetching a note's tags and attachments, and deleting notes, go through noteID.
CREATE INDEX IF NOT EXISTS notesArchivedSortDateIndex ON notes (archived, sortDate);
CREATE INDEX IF NOT EXISTS notesModificationDateIndex ON notes (modificationDate);
CREATE INDEX IF NOT EXISTS tagsNotesLookupNoteIDIndex ON tagsNotesLookup (noteID);
CREATE INDEX IF NOT EXISTS attachmentsNotesLookupNoteIDIndex ON attachmentsNotesLookup (noteID);
