/// The words of a piece of SQL, lower-cased: identifiers, keywords and the words inside quoted
/// names and strings. Used where the store must know, conservatively, which columns a piece of
/// SQL may read: a false match only costs a re-fetch or a stricter check, never a wrong answer.
func sqlWords(in sql: String) -> Set<String> {
    Set(sql.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
}
