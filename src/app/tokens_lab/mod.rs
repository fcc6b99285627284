//! The tokens lab (`data-lab="tokens"`, `view=tokens`): what can be a token
//! (note 000 §1, §5.3). An image cut into patches, a sound cut into 10 ms
//! frames, the people of a social network: for each, the object, how it is
//! cut, the matrix X the engine receives, and one token's attention drawn
//! back on the object. Its code is a chunk of its own
//! (`src/app/chunks/tokens_bridge.rs`); the math is
//! `crate::lesson::labs::tokens`, the state and its reducer `state.rs`.

mod audio;
mod graph;
mod image;
mod state;
mod xgrid;

use crate::app::i18n::{Lang, TokensText};
use crate::app::roots::Root;
use crate::attention::Matrix;
use crate::lesson::labs::tokens;
use state::{Kind, Msg, State};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The query's attention over every token, and the matrix X they came as.
#[derive(PartialEq)]
pub struct Seen {
    pub x: Matrix,
    /// Row `i`: token i's weights over all tokens.
    pub weights: Matrix,
}

/// One head of the engine on `x` (with `mask` when attention is
/// restricted), as the lab fixes it (`tokens::scenario`).
fn attend(x: Matrix, friends_only: bool) -> Seen {
    let d = x.ncols();
    let s = tokens::scenario(x.clone(), friends_only.then(tokens::friends_mask), d);
    let weights = tokens::weights(&s).expect("the lab's tokens are finite and fit one head");
    Seen { x, weights }
}

#[derive(Properties, Clone, PartialEq)]
pub struct TokensProps {
    pub lang: Lang,
    /// The lab's section, which carries `data-kind`, `data-n`, `data-d`
    /// and `data-query` (docs/format.md §3).
    pub lab: web_sys::Element,
}

/// The lab: the kind, then that kind's figure.
#[component]
pub fn TokensLab(p: &TokensProps) -> Html {
    let state = use_reducer(from_address);
    let lang = p.lang;
    let send = {
        let state = state.clone();
        Callback::from(move |m: Msg| state.dispatch(m))
    };
    let seen = use_memo(
        (
            state.kind,
            state.patch,
            state.image.clone(),
            state.seconds.to_bits(),
            state.friends_only,
        ),
        |_| seen_of(&state),
    );
    {
        let lab = p.lab.clone();
        let shown = (state.kind, state.n(), seen.x.ncols(), state.query());
        use_effect_with(shown, move |&(kind, n, d, q)| {
            for (k, v) in [
                ("data-kind", kind.code().to_string()),
                ("data-n", n.to_string()),
                ("data-d", d.to_string()),
                ("data-query", q.to_string()),
            ] {
                let _ = lab.set_attribute(k, &v);
            }
        });
    }
    // The address follows the reader's changes of the settings it keeps,
    // not the lab's opening (nor a pixel drawn or a query chosen).
    let opened = use_mut_ref(|| false);
    {
        let s = &*state;
        let kept = (s.kind, s.patch, s.seconds.to_bits(), s.friends_only);
        use_effect_with(kept, move |&(kind, patch, seconds, friends_only)| {
            if std::mem::replace(&mut *opened.borrow_mut(), true) {
                keep(kind, patch, f64::from_bits(seconds), friends_only);
            }
        });
    }
    let kind_change = {
        let send = send.clone();
        Callback::from(move |e: Event| {
            if let Some(k) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| Kind::from_code(&s.value()))
            {
                send.emit(Msg::Kind(k));
            }
        })
    };
    let kind_word = |k: Kind| match k {
        Kind::Image => TokensText::TokKindImage,
        Kind::Audio => TokensText::TokKindAudio,
        Kind::Graph => TokensText::TokKindGraph,
    };
    let body = match state.kind {
        Kind::Image => {
            html! { <image::ImageKind state={state.clone()} seen={seen.clone()} send={send.clone()} lang={lang} /> }
        }
        Kind::Audio => {
            html! { <audio::AudioKind state={state.clone()} seen={seen.clone()} send={send.clone()} lang={lang} /> }
        }
        Kind::Graph => {
            html! { <graph::GraphKind state={state.clone()} seen={seen.clone()} send={send.clone()} lang={lang} /> }
        }
    };
    html! {
        <div class="tokens-lab">
            <p class="lead">{ TokensText::TokLead.t(lang) }</p>
            <label class="lab-controls">{ TokensText::TokKind.t(lang) }{ " " }
                <select data-control="kind" onchange={kind_change}>
                    { for Kind::ALL.into_iter().map(|k| html! {
                        <option value={k.code()} selected={k == state.kind}>{ kind_word(k).t(lang) }</option>
                    }) }
                </select>
            </label>
            { body }
        </div>
    }
}

/// The tokens and weights of the kind `s` shows.
fn seen_of(s: &State) -> Seen {
    match s.kind {
        Kind::Image => attend(
            tokens::image_x(&s.image, tokens::SIDE, s.patch, tokens::D_MODEL)
                .expect("the patch sides offered divide the image"),
            false,
        ),
        Kind::Audio => attend(tokens::audio_x(s.seconds, tokens::BANDS), false),
        Kind::Graph => attend(people(), s.friends_only),
    }
}

/// Each person's vector: their traits, one column each.
pub fn people() -> Matrix {
    tokens::people_x(tokens::FEATURES.len())
}

/// The settings the address gives (`?tokens.kind=audio&tokens.duration=2`):
/// a copied link or embed code opens the lab as the reader left it.
fn from_address() -> State {
    use crate::app::web::query;
    let mut s = State::default();
    if let Some(k) = query("tokens.kind").and_then(|k| Kind::from_code(&k)) {
        s = s.apply(Msg::Kind(k));
    }
    if let Some(p) = query("tokens.patch").and_then(|p| p.parse().ok()) {
        s = s.apply(Msg::Patch(p));
    }
    if let Some(t) = query("tokens.duration").and_then(|t| crate::attention::json::decimal(&t)) {
        s = s.apply(Msg::Seconds(t));
    }
    if let Some(r) = query("tokens.reach") {
        s = s.apply(Msg::FriendsOnly(r != "everyone"));
    }
    s
}

/// Writes the settings into the address (no reload, no history entry).
fn keep(kind: Kind, patch: usize, seconds: f64, friends_only: bool) {
    use crate::app::web::set_query;
    set_query("tokens.kind", kind.code());
    set_query("tokens.patch", &patch.to_string());
    set_query("tokens.duration", &seconds.to_string());
    set_query(
        "tokens.reach",
        if friends_only { "friends" } else { "everyone" },
    );
}

/// The props shared by each kind's figure.
#[derive(Properties, PartialEq)]
pub struct KindProps {
    pub state: UseReducerHandle<State>,
    pub seen: Rc<Seen>,
    pub send: Callback<Msg>,
    pub lang: Lang,
}

/// The colour of a weight `w` of a row whose largest is `max`: green, its
/// opacity the weight's share of the largest (at most 0.8, so the image
/// shows through the largest).
pub fn weight_fill(w: f64, max: f64) -> String {
    format!(
        "rgba(27,158,119,{:.3})",
        if max > 0.0 { 0.8 * w / max } else { 0.0 }
    )
}

thread_local! {
    static ROOT: RefCell<Option<Root<TokensLab>>> = const { RefCell::new(None) };
}

/// Renders the lab into `host` (once), writing the contract's attributes
/// on `lab`.
pub fn mount(host: web_sys::Element, lab: web_sys::Element, lang: Lang) {
    if Root::mount_once(&ROOT, host, TokensProps { lang, lab }) {
        add_style();
    }
}

/// Adds the lab's rules (`style.css`) to the page: they come with its
/// chunk, not with the first screen's stylesheet.
fn add_style() {
    let doc = gloo::utils::document();
    if let (Ok(style), Some(head)) = (doc.create_element("style"), doc.head()) {
        style.set_text_content(Some(include_str!("style.css")));
        let _ = head.append_child(&style);
    }
}

/// Shows the lab in `lang`.
pub fn set_lang(lang: Lang) {
    Root::update(&ROOT, |p| std::mem::replace(&mut p.lang, lang) != lang);
}
