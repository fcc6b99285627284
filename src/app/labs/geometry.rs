//! The `geometry` lab (docs/figures.md F6, note 004 §8): the dot product as
//! `|q| |k| cos θ`. Drag q and three keys on a plane (pointer, touch, or
//! focus a handle and use the arrow keys; Shift for bigger steps); the
//! lengths, the angle, cos θ and the score update live, and the softmax
//! weights of q over the keys show as bars. The math is
//! `crate::lesson::labs::geometry`.

use super::predict::Lab;
use super::{keep_setting, setting};
use crate::app::i18n::{fill, LabText, Lang};
use crate::lesson::format::rounded;
use crate::lesson::labs::geometry::{nudge, start, weights, Plane, V2};
use yew::prelude::*;

const PLANE: Plane = Plane {
    size: 300.0,
    extent: 3.5,
};

#[derive(Properties, PartialEq)]
pub struct GeometryLabProps {
    pub lang: Lang,
}

/// The vectors: q, then k¹, k², k³.
type Vectors = [V2; 4];

/// The vectors as the address writes them: `qx,qy,k1x,k1y,…` (3 decimals).
fn vectors_text(v: &Vectors) -> String {
    v.iter()
        .flat_map(|p| [rounded(p.x, 3), rounded(p.y, 3)])
        .collect::<Vec<_>>()
        .join(",")
}

/// The vectors `qx,qy,k1x,k1y,…` reads as: 8 numbers on the plane.
fn vectors_of(text: &str) -> Option<Vectors> {
    let xs: Vec<f64> = text
        .split(',')
        .map(crate::attention::json::decimal)
        .collect::<Option<_>>()?;
    let ok = xs.len() == 8 && xs.iter().all(|x| x.abs() <= PLANE.extent);
    ok.then(|| std::array::from_fn(|i| V2::new(xs[2 * i], xs[2 * i + 1])))
}

fn name(i: usize) -> String {
    match i {
        0 => "q".into(),
        j => format!("k{}", crate::lesson::timeline::sup(j)),
    }
}

/// The plane point under a pointer event on the lab's SVG.
fn point(e: &PointerEvent, svg: &NodeRef) -> Option<V2> {
    let el = svg.cast::<web_sys::Element>()?;
    let r = el.get_bounding_client_rect();
    if r.width() <= 0.0 {
        return None;
    }
    // The SVG may be drawn smaller than its viewBox (narrow screens).
    let k = PLANE.size / r.width();
    let x = (f64::from(e.client_x()) - r.left()) * k;
    let y = (f64::from(e.client_y()) - r.top()) * k;
    Some(PLANE.from_px(x, y))
}

#[component]
pub fn GeometryLab(p: &GeometryLabProps) -> Html {
    let lang = p.lang;
    // The address keeps the vectors and the key the readout is about.
    let vecs = use_state(|| {
        setting::<String>("geometry.v", |_| true)
            .and_then(|t| vectors_of(&t))
            .unwrap_or_else(|| {
                let (q, k) = start();
                [q, k[0], k[1], k[2]]
            })
    });
    // The key the readout is about (1..=3).
    let chosen = use_state(|| setting("geometry.key", |k| (1..=3).contains(k)).unwrap_or(2usize));
    // Written once the reader has stopped moving them for a moment (a
    // drag changes them every frame; the address need not follow as fast).
    {
        let written = use_mut_ref(|| (vectors_text(&vecs), *chosen));
        let timer = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
        use_effect_with((*vecs, *chosen), move |(v, c)| {
            let now = (vectors_text(v), *c);
            if *written.borrow() != now {
                *timer.borrow_mut() = Some(gloo::timers::callback::Timeout::new(250, move || {
                    keep_setting("geometry.v", &now.0);
                    keep_setting("geometry.key", now.1);
                    *written.borrow_mut() = now;
                }));
            }
        });
    }
    let dragging = use_mut_ref(|| None::<usize>);
    let svg = use_node_ref();
    let set = {
        let vecs = vecs.clone();
        move |i: usize, v: V2| {
            let mut next: Vectors = *vecs;
            if next[i] != v {
                next[i] = v;
                vecs.set(next);
            }
        }
    };
    let down = |i: usize| {
        let (dragging, chosen, svg) = (dragging.clone(), chosen.clone(), svg.clone());
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            *dragging.borrow_mut() = Some(i);
            if i > 0 {
                chosen.set(i);
            }
            if let Some(el) = svg.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
        })
    };
    let on_move = {
        let (dragging, svg, set) = (dragging.clone(), svg.clone(), set.clone());
        Callback::from(move |e: PointerEvent| {
            let Some(i) = *dragging.borrow() else { return };
            if let Some(v) = point(&e, &svg) {
                set(i, v);
            }
        })
    };
    let on_up = {
        let dragging = dragging.clone();
        Callback::from(move |_: PointerEvent| *dragging.borrow_mut() = None)
    };
    let key = |i: usize| {
        let (vecs, chosen, set) = (vecs.clone(), chosen.clone(), set.clone());
        Callback::from(move |e: KeyboardEvent| {
            let (dx, dy) = match e.key().as_str() {
                "ArrowLeft" => (-1, 0),
                "ArrowRight" => (1, 0),
                "ArrowUp" => (0, 1),
                "ArrowDown" => (0, -1),
                _ => return,
            };
            e.prevent_default();
            if i > 0 {
                chosen.set(i);
            }
            set(i, nudge(vecs[i], dx, dy, e.shift_key(), PLANE.extent));
        })
    };
    let focus = |i: usize| {
        let chosen = chosen.clone();
        Callback::from(move |_: FocusEvent| {
            if i > 0 {
                chosen.set(i);
            }
        })
    };

    let v = *vecs;
    let q = v[0];
    let k = v[*chosen];
    let w = weights(q, &v[1..]);
    let (cx, cy) = PLANE.to_px(V2::new(0.0, 0.0));
    let r2 = |x: f64| rounded(x, 2);
    let grid: Vec<f64> = (-3..=3).map(f64::from).collect();
    let vector = |i: usize| {
        let (x, y) = PLANE.to_px(v[i]);
        let role = if i == 0 { "role-query" } else { "role-key" };
        let label = format!(
            "{} = ({}, {})",
            name(i),
            rounded(v[i].x, 1),
            rounded(v[i].y, 1)
        );
        html! {
            <g class={classes!("vec", role, (i == *chosen).then_some("chosen"))}>
                <line x1={r2(cx)} y1={r2(cy)} x2={r2(x)} y2={r2(y)} marker-end="url(#geo-arrow)" />
                <text x={r2(x + 8.0)} y={r2(y - 8.0)}>{ name(i) }</text>
                <circle class="handle" data-vec={if i == 0 { "q".to_string() } else { format!("k{i}") }}
                    cx={r2(x)} cy={r2(y)} r="13" tabindex="0" role="slider"
                    aria-label={format!("{} {label}", LabText::LabDragHint.t(lang))} aria-valuetext={label}
                    onpointerdown={down(i)} onkeydown={key(i)} onfocus={focus(i)} />
            </g>
        }
    };
    // The question and its answer are worded from the vectors on screen,
    // with the numbers the readout shows (the same rounding), so they stay
    // true however the reader has dragged the keys.
    let len = |j: usize| rounded(v[j].norm(), 3);
    let angle = |j: usize| rounded(q.angle_deg(v[j]), 1);
    let score = |j: usize| rounded(q.dot(v[j]), 2);
    let weight = |j: usize| rounded(w[j - 1], 3);
    let question = fill(
        LabText::LabGeometryQuestion.t(lang),
        &[&len(1), &angle(1), &len(2), &angle(2)],
    );
    let right = usize::from(w[1] > w[0]);
    let explanation = fill(
        LabText::LabGeometryExplain.t(lang),
        &[
            &name(right + 1),
            &score(1),
            &score(2),
            &weight(1),
            &weight(2),
        ],
    );
    let column = |j: usize| classes!((j == *chosen).then_some("now"));
    let each = |f: &dyn Fn(usize) -> String| -> Html {
        html! { <>{ for (1..=3).map(|j| html! { <td class={column(j)}>{ f(j) }</td> }) }</> }
    };
    html! {
        <Lab name="geometry" title={LabText::LabGeometryTitle.t(lang)} lead={LabText::LabGeometryLead.t(lang)}
            question={question} right={right}
            answers={vec![AttrValue::from("k¹"), AttrValue::from("k²")]}
            explanation={explanation} lang={lang}>
                <div class="lab-row">
                    <svg class="plane" ref={svg.clone()} width="300" height="300" viewBox="0 0 300 300"
                        onpointermove={on_move} onpointerup={on_up.clone()} onpointercancel={on_up}
                        role="group" aria-label={LabText::LabGeometryTitle.t(lang)}>
                        <defs>
                            <marker id="geo-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12" orient="auto-start-reverse">
                                <path d="M0,0 L10,5 L0,10 z" fill="context-stroke" />
                            </marker>
                        </defs>
                        { for grid.iter().map(|g| {
                            let (gx, gy) = PLANE.to_px(V2::new(*g, *g));
                            html! { <>
                                <line class={classes!("grid", (*g == 0.0).then_some("axis"))} x1={r2(gx)} x2={r2(gx)} y1="0" y2="300" />
                                <line class={classes!("grid", (*g == 0.0).then_some("axis"))} y1={r2(gy)} y2={r2(gy)} x1="0" x2="300" />
                            </> }
                        }) }
                        { for [1usize, 2, 3, 0].into_iter().map(vector) }
                    </svg>
                    <div class="readout">
                        <table class="lab-table geometry-table" data-key={chosen.to_string()} data-score={q.dot(k).to_string()}>
                            <caption>{ format!("|q| = {}", rounded(q.norm(), 3)) }</caption>
                            <thead><tr><th></th>{ for (1..=3).map(|j| html! { <th scope="col" class={column(j)}>{ name(j) }</th> }) }</tr></thead>
                            <tbody>
                                <tr><th scope="row">{ "|k|" }</th>{ each(&|j| len(j)) }</tr>
                                <tr><th scope="row">{ "θ" }</th>{ each(&|j| format!("{}°", angle(j))) }</tr>
                                <tr><th scope="row">{ "cos θ" }</th>{ each(&|j| rounded(q.cos(v[j]), 3)) }</tr>
                                <tr><th scope="row">{ "|q| |k| cos θ" }</th>{ each(&|j| rounded(q.norm() * v[j].norm() * q.cos(v[j]), 3)) }</tr>
                                <tr><th scope="row">{ "q·k = q_x k_x + q_y k_y" }</th>{ each(&|j| rounded(q.dot(v[j]), 3)) }</tr>
                            </tbody>
                        </table>
                        <div class="bars" role="list" aria-label={LabText::LabGeometryWeights.t(lang)}>
                            <p>{ LabText::LabGeometryWeights.t(lang) }</p>
                            { for w.iter().enumerate().map(|(j, wj)| html! {
                                <div class="bar-row" role="listitem" data-weight={(j + 1).to_string()} data-value={wj.to_string()}>
                                    <span class="who">{ name(j + 1) }</span>
                                    <span class="bar"><span style={format!("width:{}%", rounded(100.0 * wj, 1))}></span></span>
                                    <span class="num">{ format!("q·k = {} → α′ = {}", score(j + 1), rounded(*wj, 3)) }</span>
                                </div>
                            }) }
                        </div>
                    </div>
                </div>
            </Lab>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_in_the_address_round_trip_on_the_plane() {
        let (q, k) = start();
        let v: Vectors = [q, k[0], k[1], k[2]];
        assert_eq!(vectors_text(&v), "2,1,1,0.5,0.5,3,-2,-1");
        assert_eq!(vectors_of("2,1,1,0.5,0.5,3,-2,-1"), Some(v));
        // Eight numbers, all on the plane.
        for bad in [
            "2,1,1,0.5,0.5,3,-2",
            "2,1,1,0.5,0.5,3,-2,-9",
            "2,1,x,0.5,0.5,3,-2,-1",
        ] {
            assert_eq!(vectors_of(bad), None, "{bad}");
        }
    }
}
