import AppDataFolder
import Testing

@Suite struct AppDataFolderTests {
    @Test func anAbsoluteXDGDataHomeWins() {
        let url = AppDataFolder.url(for: "rss", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
        #expect(url.path == "/data/rss")
    }

    @Test func aRelativeOrMissingXDGDataHomeFallsBackToHome() {
        #expect(AppDataFolder.url(for: "vesper", environment: ["XDG_DATA_HOME": "data", "HOME": "/home/a"]).path
            == "/home/a/.local/share/vesper")
        #expect(AppDataFolder.url(for: "vesper-server", environment: ["HOME": "/home/b"]).path
            == "/home/b/.local/share/vesper-server")
    }
}
