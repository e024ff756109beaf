/// Words for the libxml2 error codes that `XMLParser` reports, for warnings a person reads.
///
/// Only the errors feeds are seen to have get their own words; the others are named by code.
enum LibXMLErrors {
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "the document ended too early"
        case 9: return "a character XML does not allow"
        case 23: return "an entity reference without its \";\""
        case 38, 39, 40, 41: return "a malformed attribute"
        case 42: return "an attribute given twice"
        case 65: return "a space missing in a tag"
        case 68: return "a \"<\" or \"&\" that starts nothing"
        case 73: return "a tag without its \">\""
        case 76: return "an end tag that does not match its start tag"
        case 77: return "an element left open"
        default: return "XML that is not well-formed"
        }
    }
}
