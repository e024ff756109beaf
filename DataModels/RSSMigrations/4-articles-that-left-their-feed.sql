-- Migration 4: when a refresh found an article missing from its feed's document.

-- NULL while the feed lists the article, and for articles no refresh has yet seen missing (an
-- upgraded database learns which have left at each feed's next download). An article the feed
-- lists again is NULL again. Only articles that left their feed are ever pruned.
ALTER TABLE articles ADD COLUMN leftFeedAt DATE;
-- Pruning: a partial index, as small as the number of articles that left.
CREATE INDEX articlesLeftFeedIndex ON articles (feedID, datePublished) WHERE leftFeedAt IS NOT NULL;
