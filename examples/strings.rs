//! Writes each language's texts of the string tables (src/app/i18n/) into
//! `DIR/strings-zh.txt` and `DIR/strings-en.txt`, separated by NUL, in the
//! order of `i18n::texts`: the files the browser's release build reads
//! instead of carrying both languages in its code (scripts/build.sh;
//! docs/performance.md, "Each language's words when it is read").
//!
//! Usage: cargo run --example strings -- DIR

use attention_lab::app::i18n::{texts, Lang, TEXTS};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: strings DIR");
    for lang in [Lang::Zh, Lang::En] {
        let all = texts(lang);
        assert_eq!(all.len(), TEXTS);
        assert!(all.iter().all(|t| !t.contains('\0')), "a text holds a NUL");
        let path = std::path::Path::new(&dir).join(format!("strings-{}.txt", lang.code()));
        std::fs::write(&path, all.join("\0")).expect("write the texts");
    }
}
