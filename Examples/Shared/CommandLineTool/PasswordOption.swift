import ArgumentParser

/// The password of an account command: the `--password` given, or else the first line of
/// standard input (so that it need not appear in the shell's history).
public enum PasswordOption {
    public static func resolve(_ given: String?) throws -> String {
        if let given { return given }
        guard let line = Console.current.readStandardInput()?.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
            throw ValidationError("Give --password, or the password on standard input.")
        }
        return String(line)
    }
}
