CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL, archivedDate DATE);
CREATE TABLE tags (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE tagsNotesLookup (tagID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL,
                              PRIMARY KEY (tagID, noteID));
CREATE INDEX tagsNoteIDIndex ON tagsNotesLookup (noteID);
