CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL, archived BOOLEAN NOT NULL DEFAULT 0,
                    archivedDate DATE);
CREATE INDEX notesArchived ON notes (archived);
