//! What the stage draws at a moment, built once per moment and kept: the
//! stage's geometry and size (measured again only when the trace,
//! convention, width or granularity change), and the picture, caption,
//! formula and workbench highlights of the moment.

use super::draw::draw;
use super::highlight::{highlight_css, result_matrix};
use super::playback::Playback;
use crate::app::i18n::{caption_text, Lang};
use crate::app::Shared;
use crate::attention::{Scenario, Trace};
use crate::lesson::captions;
use crate::lesson::formulas::{formula_with, FormulaOptions};
use crate::lesson::names::Convention;
use crate::lesson::stage::{self, Ctx, Geometry};
use crate::lesson::timeline::Granularity;
use std::rc::Rc;
use yew::prelude::*;

/// The stage's cell geometry and size. Measured again only when the trace,
/// convention, width or granularity change (not on every animation frame),
/// and the size only when [`stage::SizeKey`] says the shapes changed too.
pub(super) struct Layout {
    /// The trace they were measured for (compared by pointer).
    trace: Rc<Trace>,
    /// Convention, width (bits) and granularity.
    at: (Convention, u64, Granularity),
    g: Geometry,
    key: stage::SizeKey,
    extent: (f64, f64),
}

/// The geometry and extent of `pb`'s stage at `width`, from `cache` when
/// nothing they depend on changed (and kept there for the next render).
pub(super) fn measure(
    cache: &mut Option<Layout>,
    pb: &Playback,
    conv: Convention,
    width: f64,
) -> (Geometry, (f64, f64)) {
    let trace = &pb.trace;
    let at = (conv, width.to_bits(), pb.player.granularity);
    let ctx_with = |g| Ctx {
        trace,
        scenario: &pb.scenario,
        conv,
        g,
    };
    match &*cache {
        Some(x) if x.at == at && Rc::ptr_eq(&x.trace, trace) => (x.g, x.extent),
        _ => {
            let g = Geometry::new(trace, width);
            let key = stage::size_key(ctx_with(g), &pb.player.timeline);
            let extent = match &*cache {
                Some(x) if x.key == key => x.extent,
                _ => stage::extent(ctx_with(g), &pb.player.timeline),
            };
            *cache = Some(Layout {
                trace: trace.clone(),
                at,
                g,
                key,
                extent,
            });
            (g, extent)
        }
    }
}

/// Everything a moment of the walkthrough is drawn from. The trace and
/// scenario are compared by pointer and held, so a later one can never
/// take a freed one's address and match a stale picture.
#[derive(PartialEq)]
pub(super) struct MomentKey {
    pub trace: Shared<Trace>,
    pub scenario: Shared<Scenario>,
    pub conv: Convention,
    pub lang: Lang,
    pub width: u64,
    pub granularity: Granularity,
    pub step: usize,
    pub k: usize,
    pub progress: u64,
    pub step_progress: u64,
    pub playing: bool,
    pub reduce: bool,
}

/// A moment as shown: the picture, its caption, the step's formula and the
/// workbench highlights.
pub(super) struct Moment {
    pub picture: Rc<Html>,
    pub caption: String,
    pub math: AttrValue,
    pub css: String,
}

/// The moment `key` describes, from `cache` when it is the last one built
/// (the render after the reducer takes an edit's trace shows the same
/// moment, gets the same `Rc` back and [`Prebuilt`] skips the picture).
/// `layer_attr`: the layer the workbench's marks name (stacked layers).
pub(super) fn moment(
    cache: &mut Option<(MomentKey, Rc<Moment>)>,
    key: MomentKey,
    pb: &Playback,
    (g, extent): (Geometry, (f64, f64)),
    layer_attr: Option<usize>,
) -> Rc<Moment> {
    if let Some((at, m)) = &*cache {
        if *at == key {
            return m.clone();
        }
    }
    let (trace, player, conv, lang) = (&pb.trace, &pb.player, key.conv, key.lang);
    let has_w_o = pb.has_w_o;
    let current = player.current();
    let ctx = Ctx {
        trace,
        scenario: &pb.scenario,
        conv,
        g,
    };
    let progress = f64::from_bits(key.progress);
    let scene = stage::frame(ctx, &player.timeline, key.k, progress, key.reduce);
    let mut caption = caption_text(
        &captions::caption(&current, trace, conv, has_w_o),
        &trace.tokens,
        lang,
    );
    if pb.tour.steps.len() > 1 {
        // The caption says which layer.
        let heading = crate::app::workbench::layers::layer_heading(pb.layer + 1, lang);
        caption = format!(
            "{heading}{}{caption}",
            if lang == Lang::Zh { "：" } else { ": " }
        );
    }
    let highlights = current.highlights(trace, player.progress());
    let math = result_matrix(&highlights)
        .map(|(m, _)| {
            let per_head = trace.heads.len() > 1 || has_w_o;
            formula_with(
                m,
                FormulaOptions {
                    conv,
                    scale: trace.scale,
                    has_w_o,
                    masked: trace.masked,
                    pe: trace.positional,
                    head: current.head.filter(|_| per_head),
                },
            )
        })
        .unwrap_or_default();
    let m = Rc::new(Moment {
        picture: Rc::new(draw(&scene, &g, extent, &caption)),
        caption,
        math: AttrValue::from(math),
        css: highlight_css(&highlights, layer_attr),
    });
    *cache = Some((key, m.clone()));
    m
}

#[derive(Properties, PartialEq)]
pub(super) struct PrebuiltProps {
    pub html: Shared<Html>,
}

/// Shows markup built elsewhere; given the same `Rc` again, Yew skips it
/// (no rebuild, no diff).
#[component]
pub(super) fn Prebuilt(p: &PrebuiltProps) -> Html {
    (*p.html.0).clone()
}
