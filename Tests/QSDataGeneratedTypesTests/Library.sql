-- The library model's tables (Library.plist), for the model code generator's tests.
CREATE TABLE shelves (
    uniqueID INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    note TEXT,
    createdAt DATE NOT NULL,
    position REAL NOT NULL DEFAULT 0
);
CREATE TABLE books (
    uniqueID TEXT NOT NULL PRIMARY KEY,
    title TEXT NOT NULL,
    subtitle TEXT,
    pageCount INTEGER NOT NULL,
    rating REAL,
    read BOOLEAN NOT NULL DEFAULT 0,
    published DATE,
    cover BLOB,
    keywords BLOB NOT NULL,
    details TEXT
);
CREATE TABLE authors (uniqueID TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, born INTEGER);
CREATE TABLE labels (uniqueID TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, color TEXT);
CREATE TABLE stamps (uniqueID INTEGER PRIMARY KEY, code TEXT NOT NULL, issued DATE NOT NULL);
CREATE TABLE stickers (uniqueID TEXT NOT NULL PRIMARY KEY, motif TEXT);
CREATE TABLE tasks (
    uniqueID INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'to do',
    done BOOLEAN NOT NULL DEFAULT FALSE,
    due DATE,
    effort REAL NOT NULL DEFAULT 1.5
);

CREATE TABLE booksShelvesLookup (shelfID INTEGER NOT NULL, bookID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (shelfID, bookID));
CREATE INDEX booksShelvesLookupBookIndex ON booksShelvesLookup (bookID);
CREATE TABLE stickersShelvesLookup (shelfID INTEGER NOT NULL, stickerID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (shelfID, stickerID));
CREATE INDEX stickersShelvesLookupStickerIndex ON stickersShelvesLookup (stickerID);
CREATE TABLE authorsBooksLookup (bookID TEXT NOT NULL, authorID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (bookID, authorID));
CREATE INDEX authorsBooksLookupAuthorIndex ON authorsBooksLookup (authorID);
CREATE TABLE tasksLabelsLookup (labelID TEXT NOT NULL, taskID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (labelID, taskID));
CREATE INDEX tasksLabelsLookupTaskIndex ON tasksLabelsLookup (taskID);
