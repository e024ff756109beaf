import RSSCore
