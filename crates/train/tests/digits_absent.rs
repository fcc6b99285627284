#![cfg(not(target_arch = "wasm32"))]
//! Before the page has installed the digits, a digits model is refused
//! (its own test binary: nothing here installs them).

use train::*;

#[test]
fn no_digits_no_model() {
    assert!(digits::installed().is_none());
    let e = Model::new(Config::new(Task::Digits, 1)).unwrap_err();
    assert_eq!(e.field, "config.task");
    assert_eq!(e.reason, ModelReason::NoDigits);
    assert_eq!(e.to_string(), "config.task: the digits' data is not loaded");
    // Samples drawn without data have no image and predict nothing.
    let mut rng = attention::random::Rng::new(1);
    let s = Task::Digits.sample(10, 5, &mut rng);
    assert_eq!((s.image, s.tokens.len()), (None, 5));
    assert!(s.targets.iter().all(Option::is_none));
    // The other tasks do not need them.
    assert!(Model::new(Config::new(Task::Majority, 1)).is_ok());
}

/// A digits model file read before the digits are here is refused with
/// the reason the lab answers by fetching them and reading it again.
#[test]
fn a_digits_model_file_waits_for_the_digits() {
    let c = Config::new(Task::Digits, 1);
    let file = format!(
        r#"{{"format": "{FORMAT}", "seed": 1, "steps": 0,
            "config": {{"task": "digits", "vocab": {}, "n": {}, "d_model": {}, "layers": {},
                        "heads": {}, "d_head": {}, "positions": "learned", "batch": {},
                        "lr": {}, "patch": 4}},
            "weights": {{}}, "adam": {{"m": {{}}, "v": {{}}}}}}"#,
        c.vocab, c.n, c.d_model, c.layers, c.heads, c.d_head, c.batch, c.lr
    );
    let e = Model::from_json(&file).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.reason),
        ("config.task", ModelReason::NoDigits)
    );
}
