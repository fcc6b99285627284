//! Writes each language's texts of the string tables (src/app/i18n/) into
//! three files: `DIR/strings-LANG.txt`, the page's (the first
//! `i18n::FIRST_TEXTS`), `DIR/strings-labs-LANG.txt`, the labs' and the
//! training lab's (up to `i18n::LABS_TEXTS`), and
//! `DIR/strings-tokens-LANG.txt`, the tokens lab's, separated by NUL, in
//! the order of `i18n::texts`: the files the browser's release build reads
//! instead of carrying both languages in its code (scripts/build.sh;
//! docs/performance.md, "Each language's words when it is read").
//!
//! Usage: cargo run --example strings -- DIR

use attention_lab::app::i18n::{texts, Lang, FIRST_TEXTS, LABS_TEXTS, TEXTS};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: strings DIR");
    for lang in [Lang::Zh, Lang::En] {
        let all = texts(lang);
        assert_eq!(all.len(), TEXTS);
        assert!(all.iter().all(|t| !t.contains('\0')), "a text holds a NUL");
        let (page, chunks) = all.split_at(FIRST_TEXTS);
        let (labs, tokens) = chunks.split_at(LABS_TEXTS - FIRST_TEXTS);
        for (name, part) in [
            ("strings", page),
            ("strings-labs", labs),
            ("strings-tokens", tokens),
        ] {
            let path = std::path::Path::new(&dir).join(format!("{name}-{}.txt", lang.code()));
            std::fs::write(&path, part.join("\0")).expect("write the texts");
        }
    }
}
