//! # ply-service
//!
//! The layer between ply's engine and its front ends: a request in, a
//! report out. The command line (`ply-cli`), the web server (`ply serve`)
//! and the Python bindings (`ply-py`) each turn their input into the same
//! request, call the same dispatch and render the same report, so they
//! answer alike and none re-parses another's format.
//!
//! - [`report`]: what the searches found, as serialisable types with a
//!   text form, one module per report.

pub mod report;
