//! Helpers shared by the CLI tests: run `ply` and read what it says.

// Each test binary compiles this module and uses some of its helpers.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;

pub fn ply() -> Command {
    Command::cargo_bin("ply").unwrap()
}

/// Runs `ply args...`, expects success and JSON on stdout.
pub fn json(args: &[&str]) -> Value {
    let out = ply().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "ply {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// Runs `ply args...`, expects a clean failure; returns stderr.
pub fn fails(args: &[&str]) -> String {
    let out = ply().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "ply {args:?}: {err}");
    assert!(err.starts_with("error: "), "ply {args:?}: {err}");
    assert!(!err.contains("panicked"), "ply {args:?} panicked: {err}");
    assert!(out.stdout.is_empty());
    err
}
