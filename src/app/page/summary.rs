//! The scenario in words: its shape and options, the preset's story, and
//! an embedded figure's caption line.

use super::toolbar::{preset_about, preset_name};
use crate::app::i18n::{fill, rounded_note, CommonText, Lang, PageText};
use crate::attention::{Mask, Positional, Scenario, Trace};
use crate::lesson::presets::Preset;
use yew::prelude::*;

fn mask_text(mask: &Mask, lang: Lang) -> String {
    match mask {
        Mask::None => PageText::MaskNone.t(lang).to_string(),
        Mask::Causal => PageText::MaskCausal.t(lang).to_string(),
        Mask::Padding(l) => format!("{} (L = {l})", PageText::MaskPadding.t(lang)),
        Mask::Window(w) => format!("{} (W = {w})", PageText::MaskWindow.t(lang)),
        Mask::Custom(_) => PageText::MaskCustom.t(lang).to_string(),
    }
}

/// What a preset shows; the induction preset's layer numbers are filled in.
pub(super) fn about_text(p: Preset, lang: Lang) -> String {
    fill(preset_about(p).t(lang), &["1", "2"])
}

pub(super) fn summary(s: &Scenario, lang: Lang) -> String {
    let scale = if s.scale {
        PageText::ScaleOn
    } else {
        PageText::ScaleOff
    };
    let positional = match s.positional {
        Positional::None => PageText::PositionalNone,
        Positional::Sinusoidal => PageText::PositionalSin,
        Positional::OneHot => PageText::PositionalOneHot,
    };
    format!(
        "n = {}, d_model = {}, d_k = {}, d_v = {}, h = {} · {} · {}: {} · {}: {}",
        s.n(),
        s.d_model(),
        s.d_k(),
        s.d_v(),
        s.heads.len(),
        scale.t(lang),
        PageText::MaskLabel.t(lang),
        mask_text(&s.mask, lang),
        PageText::PositionalLabel.t(lang),
        positional.t(lang)
    ) + &if s.layers() > 1 {
        format!(
            " · {}",
            fill(
                PageText::LayersCount.t(lang),
                &[&s.layers().to_string(), "1"]
            )
        )
    } else {
        String::new()
    }
}

/// An embedded figure's caption line (`caption=1`): the scenario's name
/// when it is a preset, its sizes, scaling and mask; for note 004, how the
/// note's rounded weights compare with the exact ones (the engine's numbers).
pub(super) fn caption_line(preset: Option<Preset>, s: &Scenario, t: &Trace, lang: Lang) -> Html {
    let scale = if s.scale {
        PageText::CaptionScaled
    } else {
        PageText::CaptionNotScaled
    };
    let mut line = format!(
        "n = {}, d_model = {}, h = {} · {} · {}{}{}",
        s.n(),
        s.d_model(),
        s.heads.len(),
        scale.t(lang),
        PageText::MaskLabel.t(lang),
        CommonText::Colon.t(lang),
        mask_text(&s.mask, lang)
    );
    let positional = match s.positional {
        Positional::None => None,
        Positional::Sinusoidal => Some(PageText::PositionalSin),
        Positional::OneHot => Some(PageText::PositionalOneHot),
    };
    if let Some(p) = positional {
        line.push_str(&format!(
            " · {}{}{}",
            PageText::PositionalLabel.t(lang),
            CommonText::Colon.t(lang),
            p.t(lang)
        ));
    }
    let note = (preset == Some(Preset::Notes004))
        .then(|| rounded_note(t, lang))
        .flatten();
    html! {
        <p class="embed-caption" data-caption="">
            if let Some(p) = preset {
                <strong>{ preset_name(p).t(lang) }</strong>{ CommonText::Colon.t(lang) }
            }
            { line }
            if let Some(note) = note {
                <span class="caption-note">{ note }</span>
            }
        </p>
    }
}
