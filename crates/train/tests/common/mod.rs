//! Helpers the train crate's integration tests share.

/// `text` with `drop` bytes from the byte `at` picks (of its length + 1)
/// replaced by `put`, both ends moved to character boundaries: a file cut
/// and changed anywhere, for the readers' property tests.
pub fn splice(text: &str, at: proptest::sample::Index, drop: usize, put: &str) -> String {
    let mut start = at.index(text.len() + 1);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + drop).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &text[..start], put, &text[end..])
}
