//! Share links and query parameters (docs/format.md §4). Pure string work, tested
//! natively; the effects that read `window.location` live in `web/`.
//!
//! `#s=<base64url, no padding, of the scenario JSON>` carries a whole
//! scenario. A broken or oversized one must never replace the page with an
//! error: the caller shows the reason and opens the default scenario.

use super::i18n::{Lang, PageText};
use super::views::View;
use crate::attention::{Scenario, ScenarioError};

/// Longest `#s=` payload accepted, in characters: 256 KB. Longer ones are
/// refused before anything is decoded, so the refusal is instant. (A
/// scenario of 64 × 64 inputs and 8 heads of 64 × 8 fits in about 100 KB;
/// bigger ones travel as files.)
pub const MAX_LINK_CHARS: usize = 256 * 1024;

/// Why a `#s=` link could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// The payload has `got` characters, over `limit`.
    TooLong {
        limit: usize,
        got: usize,
    },
    NotBase64,
    NotUtf8,
    Invalid(ScenarioError),
}

impl LinkError {
    /// The reason, in `lang` (field names of the format stay as written).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            LinkError::TooLong { limit, got } => super::i18n::too_long_text(*limit, *got, lang),
            LinkError::NotBase64 => PageText::LinkNotBase64.t(lang).to_string(),
            LinkError::NotUtf8 => PageText::LinkNotUtf8.t(lang).to_string(),
            LinkError::Invalid(e) => super::i18n::error_text(e, lang),
        }
    }
}

/// The `#s=…` fragment that opens `scenario`.
pub fn share_fragment(scenario: &Scenario) -> String {
    format!(
        "#s={}",
        b64url_encode(scenario.to_json_compact().as_bytes())
    )
}

/// Reads a `location.hash` (with or without the leading `#`). `None` when it
/// carries no `s=`; otherwise the scenario or why it cannot be opened.
pub fn scenario_from_fragment(hash: &str) -> Option<Result<Scenario, LinkError>> {
    let payload = param_str(hash.trim_start_matches('#'), "s")?;
    Some(decode_payload(payload))
}

/// [`param`] without copying the value (a fragment may be megabytes).
fn param_str<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

fn decode_payload(payload: &str) -> Result<Scenario, LinkError> {
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong {
            limit: MAX_LINK_CHARS,
            got: payload.len(),
        });
    }
    // Tolerate padding that some tools add, and stray whitespace from copying.
    let cleaned: String = payload
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches('=')
        .to_string();
    let bytes = b64url_decode(&cleaned).ok_or(LinkError::NotBase64)?;
    let text = String::from_utf8(bytes).map_err(|_| LinkError::NotUtf8)?;
    Scenario::from_json(&text).map_err(LinkError::Invalid)
}

const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding (RFC 4648 §5), as share links carry it.
pub fn b64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        // 1 byte → 2 characters, 2 → 3, 3 → 4.
        for k in 0..=chunk.len() {
            out.push(B64URL[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url without padding; `None` for any other character, an
/// impossible length, or non-zero leftover bits.
pub fn b64url_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let v = B64URL.iter().position(|&a| a == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A lone character (6 bits) cannot be; leftover bits must be zero.
    (bits < 6 && acc == 0).then_some(out)
}

/// The value of `key` in `a=1&b=2` (a `location.search` without or with its
/// `?`). The keys of this app need no percent-decoding.
pub fn param(query: &str, key: &str) -> Option<String> {
    param_str(query, key).map(str::to_string)
}

/// `query` with `key` set to `value` (added when absent), as `?a=1&b=2`.
pub fn with_param(query: &str, key: &str, value: &str) -> String {
    let mut parts: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(str::to_string)
        .collect();
    let entry = format!("{key}={value}");
    match parts
        .iter_mut()
        .find(|kv| kv.split_once('=').map_or(kv.as_str(), |(k, _)| k) == key)
    {
        Some(kv) => *kv = entry,
        None => parts.push(entry),
    }
    format!("?{}", parts.join("&"))
}

/// A value safe to copy into an embed code as it is: numbers, names and
/// lists of numbers (`0.5`, `col`, `1,-0.5,2`).
fn plain(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= 200
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '-'))
}

/// The query of an embedded figure: `embed=1`, the figure, `lock=1` (the
/// figures to read are always locked; the workbench when the page it is
/// copied from is), the language, `caption=1` when asked for, and what the
/// instructor sees on that page (`search`): its layout (`convention`), the
/// walkthrough's `granularity` and `speed` (and, for the walkthrough, its
/// `step`), and for a lab that lab's settings (its row of
/// [`VIEWS`](super::views::VIEWS)).
pub fn embed_params(view: &str, lang: &str, search: &str, caption: bool) -> String {
    let mut q = format!("embed=1&view={view}");
    if view != "workbench" || param_str(search, "lock").is_some_and(|v| v == "1" || v == "true") {
        q.push_str("&lock=1");
    }
    q.push_str("&lang=");
    q.push_str(lang);
    if caption {
        q.push_str("&caption=1");
    }
    let walkthrough: &[&str] = if view == "walkthrough" {
        &["step"]
    } else {
        &[]
    };
    // A lab's own settings (super::views::VIEWS).
    let lab = View::parse(view).map_or(&[][..], |v| v.info().settings);
    for key in ["convention", "granularity", "speed"]
        .iter()
        .chain(walkthrough)
        .chain(lab)
    {
        if let Some(v) = param_str(search, key).filter(|v| plain(v)) {
            q.push_str(&format!("&{key}={v}"));
        }
    }
    q
}

/// The embed code for a page at `origin` + `path` (see
/// [`super::web::embed_snippet`]). Change `view=` to `workbench` for the
/// matrices alone; `lock=1` keeps the numbers read-only.
pub fn embed_snippet(origin: &str, path: &str, params: &str, fragment: &str) -> String {
    format!(
        "<iframe src=\"{origin}{path}?{params}{fragment}\" \
width=\"100%\" height=\"640\" style=\"border:0\" loading=\"lazy\" title=\"Attention Lab\"></iframe>
<script>
// Attention Lab tells its height; size the iframe to it.
addEventListener(\"message\", (e) => {{
  if (e.origin !== \"{origin}\" || !e.data || e.data.type !== \"attention-lab:height\") return;
  for (const f of document.querySelectorAll(\"iframe\"))
    if (f.contentWindow === e.source) f.style.height = e.data.height + \"px\";
}});
</script>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::views::VIEWS;
    use crate::lesson::presets::notes_004;

    #[test]
    fn share_link_round_trips() {
        let s = notes_004();
        let frag = share_fragment(&s);
        assert!(frag.starts_with("#s="));
        assert!(
            !frag[3..].contains(['+', '/', '=']),
            "base64url without padding: {frag}"
        );
        assert_eq!(scenario_from_fragment(&frag), Some(Ok(s)));
    }

    #[test]
    fn no_s_means_no_scenario() {
        assert_eq!(scenario_from_fragment(""), None);
        assert_eq!(scenario_from_fragment("#"), None);
        assert_eq!(scenario_from_fragment("#top"), None);
    }

    #[test]
    fn broken_links_say_why() {
        assert_eq!(
            scenario_from_fragment("#s=***"),
            Some(Err(LinkError::NotBase64))
        );
        // "//79" is base64 of bytes ff fe fd: not UTF-8.
        assert_eq!(
            scenario_from_fragment("#s=__79"),
            Some(Err(LinkError::NotUtf8))
        );
        let not_json = b64url_encode(b"{\"format\": 3}");
        match scenario_from_fragment(&format!("#s={not_json}")) {
            Some(Err(LinkError::Invalid(e))) => assert_eq!(e.field, "format"),
            other => panic!("expected a format error, got {other:?}"),
        }
        let huge = "A".repeat(MAX_LINK_CHARS + 4);
        assert_eq!(
            scenario_from_fragment(&format!("#s={huge}")),
            Some(Err(LinkError::TooLong {
                limit: 262_144,
                got: MAX_LINK_CHARS + 4
            }))
        );
        // At the limit it is decoded (and refused for what it says).
        let at = "A".repeat(MAX_LINK_CHARS);
        assert!(matches!(
            scenario_from_fragment(&format!("#s={at}")),
            Some(Err(LinkError::Invalid(_)))
        ));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // base64 is a native dev-dependency
    fn padded_links_still_open() {
        let s = notes_004();
        let padded = format!("#s={}==", {
            use base64::Engine;
            base64::engine::general_purpose::URL_SAFE.encode(s.to_json_compact())
        });
        assert_eq!(scenario_from_fragment(&padded), Some(Ok(s)));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // base64 is a native dev-dependency
    fn base64url_agrees_with_the_base64_crate() {
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        use base64::Engine;
        let mut rng = crate::lesson::random::Rng::new(5);
        for len in 0..200 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let ours = b64url_encode(&bytes);
            assert_eq!(ours, URL_SAFE_NO_PAD.encode(&bytes), "{len} bytes");
            assert_eq!(b64url_decode(&ours), Some(bytes));
        }
        for bad in ["A", "AAAAA", "ab+c", "ab/c", "a=", "ä", "AB", "AAB"] {
            assert_eq!(
                b64url_decode(bad),
                URL_SAFE_NO_PAD.decode(bad).ok(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_embed_snippet_names_the_page_and_checks_the_origin() {
        let code = embed_snippet(
            "https://notes.example",
            "/lab/",
            &embed_params("walkthrough", "zh", "", false),
            "#s=abc",
        );
        assert!(code.contains(
            "src=\"https://notes.example/lab/?embed=1&view=walkthrough&lock=1&lang=zh#s=abc\""
        ));
        assert!(code.contains("e.origin !== \"https://notes.example\""));
        assert!(code.contains("attention-lab:height"));
        // Heatmaps are locked too; the workbench stays editable, unless the
        // page it is copied from is locked.
        assert_eq!(
            embed_params("heatmaps", "en", "", false),
            "embed=1&view=heatmaps&lock=1&lang=en"
        );
        assert_eq!(
            embed_params("workbench", "en", "?lang=zh", false),
            "embed=1&view=workbench&lang=en"
        );
        assert_eq!(
            embed_params("workbench", "en", "?lock=1", false),
            "embed=1&view=workbench&lock=1&lang=en"
        );
        // The page's layout and walkthrough settings come along, the step
        // too for the walkthrough; anything odd does not.
        assert_eq!(
            embed_params(
                "walkthrough",
                "zh",
                "?convention=col&step=4&granularity=dot&speed=1.5&lock=1&x=<",
                false
            ),
            "embed=1&view=walkthrough&lock=1&lang=zh&convention=col&granularity=dot&speed=1.5&step=4"
        );
        assert_eq!(
            embed_params("heatmaps", "en", "?convention=%22%3E&step=4", false),
            "embed=1&view=heatmaps&lock=1&lang=en"
        );
        // The caption line when asked for.
        assert_eq!(
            embed_params("walkthrough", "en", "?step=6", true),
            "embed=1&view=walkthrough&lock=1&lang=en&caption=1&step=6"
        );
    }

    #[test]
    fn every_view_embeds_as_itself_with_its_own_settings() {
        let page = "?lang=en&step=3&scaling.dk=16&scaling.seed=7&dropout.train=1&dropout.p=0.25\
&dropout.seed=2&dropout.query=3&dropout.head=1&cost.window=3&cost.rank=5&cost.metric=exps&positions.pe=none&positions.order=2,0,1\
&geometry.v=1,0.5,-1,2,0,1,1,1&geometry.key=3&masks.x=1\
&tokens.kind=audio&tokens.patch=4&tokens.duration=0.5&tokens.reach=everyone";
        for row in &VIEWS {
            let view = row.name;
            let q = embed_params(view, "en", page, false);
            assert!(
                q.starts_with(&format!("embed=1&view={view}&")),
                "{view}: {q}"
            );
            // The step is the walkthrough's alone.
            assert_eq!(q.contains("&step=3"), view == "walkthrough", "{q}");
            // A lab carries its own settings and no other lab's.
            for other in &VIEWS {
                for key in other.settings {
                    assert_eq!(
                        q.contains(&format!("&{key}=")),
                        other.name == view,
                        "{view}: {q}"
                    );
                }
            }
        }
        assert_eq!(
            embed_params("scaling", "zh", page, false),
            "embed=1&view=scaling&lock=1&lang=zh&scaling.dk=16&scaling.seed=7"
        );
        assert_eq!(
            embed_params("cost", "en", page, true),
            "embed=1&view=cost&lock=1&lang=en&caption=1&cost.window=3&cost.rank=5&cost.metric=exps"
        );
        assert_eq!(
            embed_params("positions", "en", page, false),
            "embed=1&view=positions&lock=1&lang=en&positions.pe=none&positions.order=2,0,1"
        );
        assert_eq!(
            embed_params("geometry", "en", page, false),
            "embed=1&view=geometry&lock=1&lang=en&geometry.v=1,0.5,-1,2,0,1,1,1&geometry.key=3"
        );
        // A value that is not plain numbers or names stays behind.
        assert_eq!(
            embed_params("dropout", "en", "?dropout.p=%3Cb%3E&dropout.seed=4", false),
            "embed=1&view=dropout&lock=1&lang=en&dropout.seed=4"
        );
    }

    #[test]
    fn query_parameters() {
        assert_eq!(param("?lang=en&embed=1", "lang").as_deref(), Some("en"));
        assert_eq!(param("lang=zh", "lang").as_deref(), Some("zh"));
        assert_eq!(param("?embed", "embed").as_deref(), Some(""));
        assert_eq!(param("?language=en", "lang"), None);
        assert_eq!(param("", "lang"), None);
    }

    #[test]
    fn set_a_parameter() {
        assert_eq!(
            with_param("?lang=zh&embed=1", "lang", "en"),
            "?lang=en&embed=1"
        );
        assert_eq!(with_param("", "lang", "en"), "?lang=en");
        assert_eq!(with_param("?embed=1", "lang", "zh"), "?embed=1&lang=zh");
    }

    #[test]
    fn messages_exist_in_both_languages() {
        let too_long = LinkError::TooLong {
            limit: MAX_LINK_CHARS,
            got: 1_500_000,
        };
        for e in [too_long.clone(), LinkError::NotBase64, LinkError::NotUtf8] {
            assert_ne!(e.message(Lang::Zh), e.message(Lang::En));
        }
        // The limit is stated in both languages.
        for lang in [Lang::Zh, Lang::En] {
            let m = too_long.message(lang);
            assert!(m.contains("256 KB") && m.contains("1,500,000"), "{m}");
        }
    }
}
