//! The animated walkthrough (FIGURES F1, F2, F4, F5): a player over the
//! pure [`Timeline`]. What moves is the data: each step's highlights become
//! one small `<style>` element keyed on the page contract's `data-matrix`,
//! `data-head`, `data-row` and `data-col`, so playback never re-renders a
//! matrix; only this component re-renders, and only when the step (or, in
//! a dot product, the pair being multiplied) changes.
//!
//! The clock is virtual: speed multiplies it, and the position is a pure
//! function of virtual time ([`Timeline::position`]).

use super::effects;
use super::i18n::{Lang, S};
use crate::attention::Trace;
use crate::lesson::formulas::formula;
use crate::lesson::names::{Convention, MatrixName};
use crate::lesson::timeline::{Cells, Granularity, Highlight, Player, Tone, SPEEDS};
use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// How strongly a value row is tinted for weight `w`, in percent (12–90).
fn tint_percent(w: f64) -> u32 {
    (12.0 + 78.0 * w.clamp(0.0, 1.0)).round() as u32
}

/// The selector of one matrix on the page: `[data-matrix="q"][data-head="1"]`
/// (`head` 0-based; ignored for matrices that belong to no head).
fn matrix_selector(m: MatrixName, head: Option<usize>) -> String {
    let mut sel = format!("[data-matrix=\"{}\"]", m.contract_name());
    if let (Some(r), true) = (head, m.per_head()) {
        let _ = write!(sel, "[data-head=\"{}\"]", r + 1);
    }
    sel
}

/// The CSS that lights up `highlights` (see the module docs).
pub fn highlight_css(highlights: &[Highlight]) -> String {
    let mut css = String::new();
    for h in highlights {
        let mut sel = matrix_selector(h.matrix, h.head);
        match h.cells {
            Cells::All => sel.push_str(" td"),
            Cells::Row(r) => {
                let _ = write!(sel, " td[data-row=\"{r}\"]");
            }
            Cells::Col(c) => {
                let _ = write!(sel, " td[data-col=\"{c}\"]");
            }
            Cells::Cell(r, c) => {
                let _ = write!(sel, " td[data-row=\"{r}\"][data-col=\"{c}\"]");
            }
        }
        let rule = match (h.tone, h.weight) {
            // Weighted values are yellow (note 004), as strong as their weight.
            // (An integer percentage: no fixed-precision float formatting.)
            (_, Some(w)) => format!(
                "background:rgba(212,172,13,{}%);box-shadow:inset 0 0 0 2px var(--weighted)",
                tint_percent(w)
            ),
            (Tone::Source, None) => "box-shadow:inset 0 0 0 2px var(--role)".to_string(),
            (Tone::Result, None) => {
                "background:var(--hl-result);box-shadow:inset 0 0 0 3px var(--role);font-weight:700"
                    .to_string()
            }
            (Tone::Masked, None) => {
                "box-shadow:inset 0 0 0 2px var(--alert);color:var(--alert)".to_string()
            }
        };
        let _ = writeln!(css, "{sel}{{{rule}}}");
        // The head's heatmap follows: the query being computed is outlined
        // (each head's heatmap has one hidden frame, `.heat-q`, placed by --q).
        if let (Some(r), MatrixName::Scores | MatrixName::Scaled | MatrixName::Weights) =
            (h.head, h.matrix)
        {
            let map = format!(".heat-canvas[data-heat-head=\"{}\"]", r + 1);
            match h.cells {
                // Masked cells mark keys, not the query being computed (the
                // matrix-level mask step marks cells of every query).
                Cells::Row(q) | Cells::Cell(q, _) if h.tone != Tone::Masked => {
                    let _ = writeln!(css, "{map} .heat-q{{display:block;--q:{q}}}");
                }
                Cells::All => {
                    let _ = writeln!(
                        css,
                        "{map}{{outline:3px solid var(--weight);outline-offset:3px}}"
                    );
                }
                _ => {}
            }
        }
        if h.tone == Tone::Result {
            let _ = writeln!(
                css,
                "{}{{box-shadow:0 0 0 3px var(--role)}}",
                matrix_selector(h.matrix, h.head)
            );
        }
    }
    css
}

/// The matrix a step computes (for its formula and to scroll it into view).
fn result_matrix(hs: &[Highlight]) -> Option<(MatrixName, Option<usize>)> {
    hs.iter()
        .rev()
        .find(|h| h.tone == Tone::Result)
        .map(|h| (h.matrix, h.head))
}

#[derive(Properties, PartialEq)]
pub struct WalkthroughProps {
    pub trace: Rc<Trace>,
    pub has_w_o: bool,
    pub scale: bool,
    pub convention: Convention,
    pub lang: Lang,
    /// Scroll the matrix being computed into view when the step changes
    /// (not in an embedded figure, where it would scroll the host page).
    pub follow: bool,
}

/// Something done to the player at a real time (ms).
type PlayerAction = Rc<dyn Fn(&mut Player, f64)>;
/// The pending animation frame, dropped (cancelled) on teardown.
type FrameSlot = Rc<RefCell<Option<gloo::render::AnimationFrame>>>;

/// The player and the trace it was built for (to notice edits).
struct Live {
    player: Player,
    trace: Rc<Trace>,
    has_w_o: bool,
}

fn granularity_label(g: Granularity) -> S {
    match g {
        Granularity::Matrix => S::GranMatrix,
        Granularity::Row => S::GranRow,
        Granularity::Dot => S::GranDot,
    }
}

#[component]
pub fn Walkthrough(p: &WalkthroughProps) -> Html {
    let lang = p.lang;
    let update = use_force_update();
    let live = use_mut_ref(|| {
        let g = effects::query("granularity")
            .and_then(|g| Granularity::parse(&g))
            .unwrap_or(Granularity::Row);
        let speed = effects::query("speed")
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| SPEEDS.contains(s))
            .unwrap_or(1.0);
        let step = effects::query("step")
            .and_then(|s| s.parse::<usize>().ok())
            .map_or(0, |s| s.saturating_sub(1));
        Live {
            player: Player::new(&p.trace, g, p.has_w_o, step, speed),
            trace: p.trace.clone(),
            has_w_o: p.has_w_o,
        }
    });
    // An edit while playing rebuilds the timeline and keeps the step.
    {
        let mut l = live.borrow_mut();
        if !Rc::ptr_eq(&l.trace, &p.trace) || l.has_w_o != p.has_w_o {
            let g = l.player.granularity;
            l.player.rebuild(&p.trace, g, p.has_w_o, now());
            l.trace = p.trace.clone();
            l.has_w_o = p.has_w_o;
        }
    }
    // Runs `f` on the player, then repaints this component.
    let act = {
        let (live, update) = (live.clone(), update.clone());
        move |f: PlayerAction| {
            let (live, update) = (live.clone(), update.clone());
            Callback::from(move |_: ()| {
                f(&mut live.borrow_mut().player, now());
                update.force_update();
            })
        }
    };
    let (step, playing, speed) = {
        let pl = &live.borrow().player;
        (pl.step, pl.clock.playing, pl.clock.speed)
    };

    // While playing: wake every frame, repaint only when the step or the
    // lit pair changes.
    {
        let (live, update) = (live.clone(), update.clone());
        use_effect_with(playing, move |playing| {
            let handle: FrameSlot = Rc::default();
            if *playing {
                let reduce = reduced_motion();
                fn frame(h: FrameSlot, tick: Rc<dyn Fn() -> bool>) {
                    let h2 = h.clone();
                    *h.borrow_mut() = Some(gloo::render::request_animation_frame(move |_| {
                        if tick() {
                            frame(h2, tick);
                        }
                    }));
                }
                let tick: Rc<dyn Fn() -> bool> = Rc::new(move || {
                    let mut l = live.borrow_mut();
                    if l.player.tick(now(), reduce) {
                        update.force_update();
                    }
                    l.player.clock.playing
                });
                frame(handle.clone(), tick);
            }
            move || drop(handle.borrow_mut().take())
        });
    }

    // Space plays or pauses, arrows step, unless the user is typing.
    {
        let (on_toggle, on_back, on_fwd) = (
            act(Rc::new(|pl, t| pl.toggle(t))),
            act(Rc::new(|pl, t| pl.go(pl.step.saturating_sub(1), t))),
            act(Rc::new(|pl, t| pl.go(pl.step + 1, t))),
        );
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new_with_options(
                    &w,
                    "keydown",
                    gloo::events::EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                            return;
                        };
                        let typing = e
                            .target()
                            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .is_some_and(|el| {
                                matches!(
                                    el.tag_name().as_str(),
                                    "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"
                                ) || el.closest("table").ok().flatten().is_some()
                            });
                        if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        let cb = match e.key().as_str() {
                            " " => &on_toggle,
                            "ArrowRight" => &on_fwd,
                            "ArrowLeft" => &on_back,
                            _ => return,
                        };
                        e.prevent_default();
                        cb.emit(());
                    },
                )
            });
            move || drop(listener)
        });
    }

    let pl = live.borrow();
    let player = &pl.player;
    let n = player.timeline.len();
    let highlights = player.current().highlights(&p.trace, player.progress());
    let caption = player.current().caption(&p.trace, lang);
    let result = result_matrix(&highlights);
    let math = result
        .map(|(m, _)| formula(m, p.convention, p.scale, p.has_w_o))
        .unwrap_or_default();

    // The step and speed live in the address, so a link reopens them; the
    // matrix being computed is brought into view (after the first render).
    let first = use_mut_ref(|| true);
    let follow = p.follow;
    use_effect_with((step, speed), move |(step, speed)| {
        effects::set_query("step", &(step + 1).to_string());
        effects::set_query("speed", &speed.to_string());
        let first = std::mem::replace(&mut *first.borrow_mut(), false);
        if let (Some((m, head)), true) = (result, follow && !first) {
            let sel = matrix_selector(m, head);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(&sel).ok().flatten())
            {
                el.scroll_into_view_with_bool(false);
            }
        }
    });

    // `name` is the accessible name and tooltip (the label may be a symbol).
    let button = |id: Option<&'static str>,
                  label: String,
                  name: String,
                  pressed: Option<bool>,
                  onclick: Callback<()>| {
        html! {
            <button id={id} title={name.clone()} aria-label={name}
                aria-pressed={pressed.map(|b| b.to_string())} onclick={onclick.reform(|_| ())}>{ label }</button>
        }
    };
    let scrub = {
        let (live, update) = (live.clone(), update.clone());
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.value().parse::<usize>().ok())
            {
                live.borrow_mut().player.go(v.saturating_sub(1), now());
                update.force_update();
            }
        })
    };
    let on_granularity = {
        let (live, update, trace, w) = (live.clone(), update.clone(), p.trace.clone(), p.has_w_o);
        Callback::from(move |e: Event| {
            if let Some(g) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                .and_then(|s| Granularity::parse(&s.value()))
            {
                effects::set_query("granularity", g.code());
                live.borrow_mut().player.rebuild(&trace, g, w, now());
                update.force_update();
            }
        })
    };
    let play_label = if playing {
        format!("⏸ {}", S::Pause.t(lang))
    } else {
        format!("▶ {}", S::Play.t(lang))
    };
    html! {
        <section class={classes!("player", playing.then_some("playing"))} aria-label={S::WalkthroughHeading.t(lang)}
            data-step={(step + 1).to_string()} data-steps={n.to_string()}
            data-playing={playing.to_string()} data-speed={speed.to_string()}
            data-time={player.clock.at(now()).round().to_string()}>
            <div class="player-bar">
                <h2>{ S::WalkthroughHeading.t(lang) }</h2>
                { button(Some("wt-restart"), "|◀".into(), S::Restart.t(lang).into(), None, act(Rc::new(|pl, t| pl.go(0, t)))) }
                { button(Some("wt-back"), "◀".into(), S::StepBack.t(lang).into(), None, act(Rc::new(|pl, t| pl.go(pl.step.saturating_sub(1), t)))) }
                { button(Some("wt-play"), play_label, S::PlayPauseKey.t(lang).into(), Some(playing), act(Rc::new(|pl, t| pl.toggle(t)))) }
                { button(Some("wt-fwd"), "▶".into(), S::StepForward.t(lang).into(), None, act(Rc::new(|pl, t| pl.go(pl.step + 1, t)))) }
                <input id="wt-scrubber" class="scrubber" type="range" min="1" max={n.to_string()} value={(step + 1).to_string()}
                    aria-label={S::StepLabel.t(lang)} oninput={scrub} />
                <span class="counter">{ format!("{} {} / {}", S::StepLabel.t(lang), step + 1, n) }</span>
                <span class="speeds" role="group" aria-label={S::SpeedLabel.t(lang)}>
                    { for SPEEDS.iter().map(|&s| button(
                        None, format!("{s}×"), format!("{} {s}×", S::SpeedLabel.t(lang)), Some(speed == s),
                        act(Rc::new(move |pl, t| pl.set_speed(s, t))),
                    )) }
                </span>
                <label class="field inline" for="wt-granularity">
                    <span>{ S::GranularityLabel.t(lang) }</span>
                    <select id="wt-granularity" onchange={on_granularity}>
                        { for Granularity::ALL.iter().map(|g| html! {
                            <option value={g.code()} selected={*g == player.granularity}>{ granularity_label(*g).t(lang) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="player-caption" aria-live="polite">
                <p>{ caption }</p>
                <div class="step-formula">{ Html::from_html_unchecked(AttrValue::from(math)) }</div>
            </div>
            <style>{ highlight_css(&highlights) }</style>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::compute;
    use crate::lesson::presets::notes_004;
    use crate::lesson::timeline::{Phase, Step};

    #[test]
    fn highlight_rules_select_by_the_page_contract() {
        let t = compute(&notes_004()).unwrap();
        let step = Step {
            head: Some(0),
            phase: Phase::Scores {
                i: Some(1),
                j: Some(2),
            },
        };
        let css = highlight_css(&step.highlights(&t, 0.0));
        assert!(css.contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"]{"));
        assert!(css.contains("[data-matrix=\"k\"][data-head=\"1\"] td[data-row=\"2\"]{"));
        assert!(css.contains(
            "[data-matrix=\"scores\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"2\"]{"
        ));
        // The pair being multiplied at the start of the dot product.
        assert!(css
            .contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"0\"]{"));
        let sum = Step {
            head: Some(0),
            phase: Phase::WeightedSum { i: Some(0) },
        };
        let css = highlight_css(&sum.highlights(&t, 0.0));
        let w = t.heads[0].weights[(0, 1)];
        assert!(
            css.contains(&format!("rgba(212,172,13,{}%)", tint_percent(w))),
            "{css}"
        );
        let out = Step {
            head: None,
            phase: Phase::Output,
        };
        let css = highlight_css(&out.highlights(&t, 0.0));
        assert!(css.contains("[data-matrix=\"output\"] td{"), "{css}");
        assert!(!css.contains("data-head"), "{css}");
        assert!(!css.contains("heat-"), "{css}");
    }

    #[test]
    fn the_heads_heatmap_follows_the_query_being_computed() {
        let t = compute(&crate::lesson::presets::two_heads()).unwrap();
        let step = Step {
            head: Some(1),
            phase: Phase::Softmax { i: Some(2) },
        };
        let css = highlight_css(&step.highlights(&t, 0.0));
        assert!(
            css.contains(".heat-canvas[data-heat-head=\"2\"] .heat-q{display:block;--q:2}"),
            "{css}"
        );
        assert!(!css.contains("data-heat-head=\"1\""), "{css}");
        // The matrix-level mask step marks masked cells of every query: no
        // single query is framed, the whole map is.
        let mask = Step {
            head: Some(0),
            phase: Phase::Mask { i: None },
        };
        let css = highlight_css(&mask.highlights(&t, 0.0));
        assert!(!css.contains("--q"), "{css}");
        // One query's mask step frames that query.
        let mask = Step {
            head: Some(0),
            phase: Phase::Mask { i: Some(3) },
        };
        let css = highlight_css(&mask.highlights(&t, 0.0));
        let frames: Vec<&str> = css.lines().filter(|l| l.contains("--q")).collect();
        assert!(
            !frames.is_empty() && frames.iter().all(|l| l.contains("--q:3}")),
            "{css}"
        );
    }
}
