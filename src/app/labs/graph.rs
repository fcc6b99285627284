//! A graph drawn for a lab: nodes on a circle, edges as lines. The masks
//! lab edits its adjacency (the mask), the tokens lab picks a person as the
//! query and shows where their attention goes; one drawing for both, so a
//! graph looks and reads the same wherever it appears.

use yew::prelude::*;

/// Width and height of the drawing, in px.
pub const GRAPH_SIZE: f64 = 240.0;

/// What [`graph`] draws.
pub struct Graph {
    /// The edges, each `a < b`, 0-based.
    pub edges: Vec<(usize, usize)>,
    /// Each node's name (its tooltip and accessible label, after
    /// `node_word` and its number).
    pub names: Vec<AttrValue>,
    /// "Node" in the reader's language.
    pub node_word: AttrValue,
    /// The node picked (highlighted), if any.
    pub picked: Option<usize>,
    /// Nodes drawn dashed: those that may not attend to themselves.
    pub no_loop: Vec<bool>,
    /// Each node's attention weight from the picked node: drawn as the
    /// node's fill and carried in `data-weight` (full f64).
    pub weights: Option<Vec<f64>>,
    /// A click (or Enter, Space) on node k; `None` when the graph is shown
    /// only.
    pub on_node: Option<Callback<usize>>,
}

/// Where node `k` of `n` is drawn.
fn at(k: usize, n: usize) -> (f64, f64) {
    let t = std::f64::consts::TAU * k as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
    let c = GRAPH_SIZE / 2.0;
    (
        c + 0.38 * GRAPH_SIZE * t.cos(),
        c + 0.38 * GRAPH_SIZE * t.sin(),
    )
}

/// The graph as SVG: `svg[data-graph]`, `line[data-edge="a-b"]`,
/// `g.node[data-node="k"]`. A function, not a component: it keeps no
/// state, and as a component its props, diffing and lifecycle would be
/// code of their own in the chunk the two labs share.
pub fn graph(p: &Graph) -> Html {
    let n = p.names.len();
    let key = |k: usize| {
        let on = p.on_node.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                if let Some(on) = &on {
                    on.emit(k);
                }
            }
        })
    };
    let click = |k: usize| {
        let on = p.on_node.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(on) = &on {
                on.emit(k);
            }
        })
    };
    let size = GRAPH_SIZE.to_string();
    let active = p.on_node.is_some();
    html! {
        <svg data-graph="" viewBox={format!("0 0 {GRAPH_SIZE} {GRAPH_SIZE}")} width={size.clone()} height={size}>
            { for p.edges.iter().map(|&(a, b)| {
                let ((x1, y1), (x2, y2)) = (at(a, n), at(b, n));
                html! { <line data-edge={format!("{a}-{b}")} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
            }) }
            { for (0..n).map(|k| {
                let (x, y) = at(k, n);
                let w = p.weights.as_ref().and_then(|w| w.get(k).copied());
                let picked = p.picked == Some(k);
                html! {
                    <g class={classes!("node", picked.then_some("picked"), p.no_loop.get(k).copied().unwrap_or(false).then_some("no-loop"))}
                        data-node={k.to_string()} data-weight={w.map(|w| w.to_string())}
                        role="button" tabindex={if active { "0" } else { "-1" }}
                        aria-pressed={picked.to_string()}
                        aria-label={format!("{} {}: {}", p.node_word, k + 1, p.names[k])}
                        onclick={active.then(|| click(k))} onkeydown={active.then(|| key(k))}>
                        <circle cx={x.to_string()} cy={y.to_string()} r="15" />
                        if let Some(w) = w {
                            <circle class="weight" cx={x.to_string()} cy={y.to_string()} r={(15.0 * w.sqrt()).to_string()} />
                        }
                        <title>{ p.names[k].clone() }</title>
                        <text x={x.to_string()} y={(y + 4.0).to_string()} text-anchor="middle">{ k + 1 }</text>
                    </g>
                }
            }) }
        </svg>
    }
}
