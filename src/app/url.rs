//! Share links and query parameters (CONTRACT §4). Pure string work, tested
//! natively; the effects that read `window.location` live in `effects.rs`.
//!
//! `#s=<base64url, no padding, of the scenario JSON>` carries a whole
//! scenario. A broken or oversized one must never replace the page with an
//! error: the caller shows the reason and opens the default scenario.

use super::i18n::{Lang, S};
use crate::attention::{Scenario, ScenarioError};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// Longest `#s=` payload accepted, in characters (a scenario at every limit
/// of CONTRACT §1 fits well below this).
pub const MAX_LINK_CHARS: usize = 4_000_000;

/// Why a `#s=` link could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    TooLong,
    NotBase64,
    NotUtf8,
    Invalid(ScenarioError),
}

impl LinkError {
    /// The reason, in `lang` (field names of the format stay as written).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            LinkError::TooLong => S::LinkTooLong.t(lang).to_string(),
            LinkError::NotBase64 => S::LinkNotBase64.t(lang).to_string(),
            LinkError::NotUtf8 => S::LinkNotUtf8.t(lang).to_string(),
            LinkError::Invalid(e) => e.to_string(),
        }
    }
}

/// The `#s=…` fragment that opens `scenario`.
pub fn share_fragment(scenario: &Scenario) -> String {
    format!("#s={}", URL_SAFE_NO_PAD.encode(scenario.to_json_compact()))
}

/// Reads a `location.hash` (with or without the leading `#`). `None` when it
/// carries no `s=`; otherwise the scenario or why it cannot be opened.
pub fn scenario_from_fragment(hash: &str) -> Option<Result<Scenario, LinkError>> {
    let payload = param(hash.trim_start_matches('#'), "s")?;
    Some(decode_payload(&payload))
}

fn decode_payload(payload: &str) -> Result<Scenario, LinkError> {
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong);
    }
    // Tolerate padding that some tools add, and stray whitespace from copying.
    let cleaned: String = payload
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches('=')
        .to_string();
    let bytes = URL_SAFE_NO_PAD
        .decode(cleaned.as_bytes())
        .map_err(|_| LinkError::NotBase64)?;
    let text = String::from_utf8(bytes).map_err(|_| LinkError::NotUtf8)?;
    Scenario::from_json(&text).map_err(LinkError::Invalid)
}

/// The value of `key` in `a=1&b=2` (a `location.search` without or with its
/// `?`). The keys of this app need no percent-decoding.
pub fn param(query: &str, key: &str) -> Option<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
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
        let not_json = URL_SAFE_NO_PAD.encode("{\"format\": 3}");
        match scenario_from_fragment(&format!("#s={not_json}")) {
            Some(Err(LinkError::Invalid(e))) => assert_eq!(e.field, "format"),
            other => panic!("expected a format error, got {other:?}"),
        }
        let huge = "A".repeat(MAX_LINK_CHARS + 4);
        assert_eq!(
            scenario_from_fragment(&format!("#s={huge}")),
            Some(Err(LinkError::TooLong))
        );
    }

    #[test]
    fn padded_links_still_open() {
        let s = notes_004();
        let padded = format!(
            "#s={}==",
            base64::engine::general_purpose::URL_SAFE.encode(s.to_json_compact())
        );
        assert_eq!(scenario_from_fragment(&padded), Some(Ok(s)));
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
        for e in [LinkError::TooLong, LinkError::NotBase64, LinkError::NotUtf8] {
            assert_ne!(e.message(Lang::Zh), e.message(Lang::En));
        }
    }
}
