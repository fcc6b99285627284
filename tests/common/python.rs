//! Running NumPy from a native test (tests/snippets.rs, tests/tokens_numpy.rs):
//! NumPy is required, and a test fails loudly without it, never passes
//! silently. `bash scripts/setup.sh` installs it.

use std::path::PathBuf;
use std::process::Command;

pub const SETUP_HINT: &str = "run `bash scripts/setup.sh` (it installs NumPy for python3)";

/// Fails the test, loudly, when python3 or NumPy is missing.
pub fn require_numpy() {
    let out = Command::new("python3")
        .args(["-c", "import numpy"])
        .output();
    match out {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "python3 cannot import numpy, which this test needs: {SETUP_HINT}\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("python3 could not be started ({e}): {SETUP_HINT}"),
    }
}

/// A temporary `.py` file that is removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("attention_lab_{}_{name}.py", std::process::id()));
        std::fs::write(&path, text).expect("write the program to a temporary file");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
