CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL, pinned BOOLEAN NOT NULL DEFAULT 0,
                    archivedDate DATE);
CREATE TABLE tags (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE tagsNotesLookup (tagID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL,
                              PRIMARY KEY (tagID, noteID));
CREATE INDEX tagsNoteIDIndex ON tagsNotesLookup (noteID);
CREATE TABLE folders (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE notesFoldersLookup (folderID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL,
                                 PRIMARY KEY (folderID, noteID));
CREATE INDEX notesFoldersNoteIDIndex ON notesFoldersLookup (noteID);
