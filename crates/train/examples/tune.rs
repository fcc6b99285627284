use std::time::Instant;
use train::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let task = Task::from_code(&args[1]).unwrap();
    let mut c = Config::new(task, args.get(2).map_or(1, |s| s.parse().unwrap()));
    if let Some(v) = args.get(3) { c.lr = v.parse().unwrap(); }
    if let Some(v) = args.get(4) { c.layers = v.parse().unwrap(); }
    if let Some(v) = args.get(5) { c.positions = Positions::from_code(v).unwrap(); }
    if let Some(v) = args.get(6) { c.batch = v.parse().unwrap(); }
    if let Some(v) = args.get(7) { c.d_model = v.parse().unwrap(); c = c.clone().with_heads(c.heads); }
    if let Ok(h) = std::env::var("HEADS") { c = c.with_heads(h.parse().unwrap()); }
    let max: u64 = std::env::var("STEPS").map_or(2000, |s| s.parse().unwrap());
    let mut m = Model::new(c).unwrap();
    let t = Instant::now();
    let mut hit = None; let mut hit9 = None;
    while m.steps() < max {
        m.train(50);
        let (l, a) = m.evaluate();
        if m.steps() % 250 == 0 { println!("{} loss {:.4} acc {:.3}", m.steps(), l, a); }
        if a >= 0.9 && hit9.is_none() { hit9 = Some(m.steps()); }
        if a >= 0.99 && hit.is_none() { hit = Some(m.steps()); break; }
    }
    let el = t.elapsed().as_secs_f64();
    println!("hit9 {:?} hit {:?} acc {:?} {:.1} steps/s (incl eval)", hit9, hit, m.evaluate(), m.steps() as f64 / el);
    for s in m.head_scores() { println!("{s:?}"); }
}
