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
    assert_eq!(e.worded(true), "config.task：手写数字的数据还没有载入");
    // Samples drawn without data have no image and predict nothing.
    let mut rng = attention::random::Rng::new(1);
    let s = Task::Digits.sample(10, 5, &mut rng);
    assert_eq!((s.image, s.tokens.len()), (None, 5));
    assert!(s.targets.iter().all(Option::is_none));
    // The other tasks do not need them.
    assert!(Model::new(Config::new(Task::Majority, 1)).is_ok());
}
