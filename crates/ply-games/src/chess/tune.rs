//! Texel tuning: the evaluation's weights fitted to game results.
//!
//! The evaluation is linear in its weights ([`super::eval`]): each position
//! is a handful of term counts, and its score is their weighted sum blended
//! by the phase. Texel's method (Peter Österlund's, Chess Programming Wiki,
//! "Texel's Tuning Method") takes positions from games with known results
//! and looks for the weights under which `sigmoid(K * score)` predicts the
//! results best, in mean squared error. `K` turns centipawns into a win
//! probability; it is fitted first, with the starting weights, and then
//! held, so that the weights keep the centipawn scale the search's margins
//! assume. The weights move by Adam (Kingma and Ba) on the whole data set
//! each step: the gradient of a linear model is exact and cheap, a few
//! hundred thousand positions take well under a second a step.
//!
//! Each position's terms are traced once, when it is read ([`DataSet`]);
//! the fit never touches a board.

use std::fmt::Write as _;

use cozy_chess::Board;

use super::eval::{self, DOCS, N, PHASE_FULL, S, Sink, TERMS};

/// Positions with their results and their traced terms.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// Every position's nonzero terms, one after another: weight index and
    /// count (White's minus Black's).
    entries: Vec<(u16, i16)>,
    /// Where each position's entries start (one more than positions).
    starts: Vec<u32>,
    /// Each position's phase, 0 (endgame) to [`PHASE_FULL`].
    phase: Vec<u8>,
    /// Each position's result from White's side: 1 won, 0.5 drawn, 0 lost.
    result: Vec<f64>,
}

/// Collects one position's terms.
struct Trace(Vec<(u16, i16)>);

impl Sink for Trace {
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i16));
    }
}

/// A line of a data file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The line, from 1.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl DataSet {
    pub fn new() -> Self {
        DataSet {
            starts: vec![0],
            ..Default::default()
        }
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Adds a position and its result (White's side: 1, 0.5 or 0).
    pub fn push(&mut self, masks: &eval::Masks, board: &Board, result: f64) {
        let mut trace = Trace(Vec::with_capacity(48));
        let phase = eval::terms(masks, board, &mut trace);
        // One entry per weight: White's and Black's counts of a term net out.
        trace.0.sort_unstable_by_key(|&(i, _)| i);
        let mut merged: Vec<(u16, i16)> = Vec::with_capacity(trace.0.len());
        for (i, c) in trace.0 {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => merged.push((i, c)),
            }
        }
        self.entries.extend(merged.into_iter().filter(|&(_, c)| c != 0));
        self.starts.push(self.entries.len() as u32);
        self.phase.push(phase as u8);
        self.result.push(result);
    }

    /// Reads the data file format `ply tune data` writes: one position a
    /// line, a FEN, `;`, and the game's result from White's side (`1`,
    /// `0.5` or `0`). Blank lines and lines starting with `#` are skipped.
    pub fn parse(masks: &eval::Masks, text: &str) -> Result<DataSet, DataError> {
        let mut data = DataSet::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| DataError {
                line: n + 1,
                message,
            };
            let (fen, result) = line
                .rsplit_once(';')
                .ok_or_else(|| err("expected 'FEN;RESULT'".into()))?;
            let board: Board = fen
                .trim()
                .parse()
                .map_err(|e| err(format!("'{}': not a FEN ({e:?})", fen.trim())))?;
            let result = match result.trim() {
                "1" | "1.0" => 1.0,
                "0.5" => 0.5,
                "0" | "0.0" => 0.0,
                r => return Err(err(format!("'{r}': expected a result of 1, 0.5 or 0"))),
            };
            data.push(masks, &board, result);
        }
        Ok(data)
    }

    /// Every `n`th position (from the first) in a second set, the rest in
    /// the first: a held-out set, to tell a better fit from a memorised one.
    pub fn split_every(&self, n: usize) -> (DataSet, DataSet) {
        let (mut rest, mut held) = (DataSet::new(), DataSet::new());
        for i in 0..self.len() {
            let to = if n > 0 && i % n == 0 { &mut held } else { &mut rest };
            to.entries.extend_from_slice(self.terms(i));
            to.starts.push(to.entries.len() as u32);
            to.phase.push(self.phase[i]);
            to.result.push(self.result[i]);
        }
        (rest, held)
    }

    /// Position `i`'s terms.
    fn terms(&self, i: usize) -> &[(u16, i16)] {
        &self.entries[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// Weights as the fit holds them: middlegame and endgame, unrounded.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub mg: Vec<f64>,
    pub eg: Vec<f64>,
}

impl Weights {
    pub fn from_table(table: &[S; N]) -> Self {
        Weights {
            mg: table.iter().map(|w| f64::from(w.0)).collect(),
            eg: table.iter().map(|w| f64::from(w.1)).collect(),
        }
    }

    /// Rounded to the evaluation's integer weights.
    pub fn to_table(&self) -> [S; N] {
        let round = |x: f64| x.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        std::array::from_fn(|i| S(round(self.mg[i]), round(self.eg[i])))
    }

    /// Position `i`'s score in centipawns from White's side (the
    /// evaluation without its integer rounding).
    fn score(&self, data: &DataSet, i: usize) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(w, c) in data.terms(i) {
            mg += f64::from(c) * self.mg[w as usize];
            eg += f64::from(c) * self.eg[w as usize];
        }
        let phase = f64::from(data.phase[i]);
        let full = f64::from(PHASE_FULL);
        (mg * phase + eg * (full - phase)) / full
    }
}

/// The win probability a score of `cp` centipawns predicts, with scale `k`.
pub fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// The mean squared error of the weights' predictions on the data.
pub fn error(data: &DataSet, weights: &Weights, k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..data.len())
        .map(|i| (data.result[i] - sigmoid(k, weights.score(data, i))).powi(2))
        .sum();
    sum / data.len() as f64
}

/// The `K` that makes the weights' error smallest: a golden-section
/// search between 0.05 and 5 (the error is unimodal in `K`).
pub fn fit_k(data: &DataSet, weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(data, weights, a) < error(data, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The gradient of [`error`] with respect to every weight, and the error
/// itself (both from the same predictions).
pub fn gradient(data: &DataSet, weights: &Weights, k: f64) -> (Weights, f64) {
    let mut g = Weights {
        mg: vec![0.0; N],
        eg: vec![0.0; N],
    };
    let n = data.len().max(1) as f64;
    let full = f64::from(PHASE_FULL);
    // d sigmoid / d cp = s (1 - s) k ln 10 / 400.
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut squares = 0.0;
    for i in 0..data.len() {
        let s = sigmoid(k, weights.score(data, i));
        squares += (data.result[i] - s).powi(2);
        let d = 2.0 * (s - data.result[i]) * s * (1.0 - s) * scale / n;
        let phase = f64::from(data.phase[i]);
        let (dm, de) = (d * phase / full, d * (full - phase) / full);
        for &(w, c) in data.terms(i) {
            g.mg[w as usize] += dm * f64::from(c);
            g.eg[w as usize] += de * f64::from(c);
        }
    }
    (g, squares / n)
}

/// How a fit goes: steps, step size, which weights move.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Adam steps over the whole data set.
    pub epochs: usize,
    /// Adam's step size, in centipawns: about how far a weight moves a step.
    pub rate: f64,
    /// The weights that move (indexed as the table); the others keep
    /// their values. Empty: all of them.
    pub free: Vec<bool>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 500,
            rate: 1.0,
            free: Vec::new(),
        }
    }
}

/// The weights of the terms named (as in [`TERMS`], comma-separated), for
/// [`FitOptions::free`]; an unknown name is an error that lists the names.
pub fn term_mask(names: &str) -> Result<Vec<bool>, String> {
    let mut free = vec![false; N];
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(&(_, start, len)) = TERMS.iter().find(|t| t.0.eq_ignore_ascii_case(name)) else {
            let known: Vec<&str> = TERMS.iter().map(|t| t.0).collect();
            return Err(format!("unknown term '{name}' (the terms: {})", known.join(", ")));
        };
        free[start..start + len].iter_mut().for_each(|f| *f = true);
    }
    Ok(free)
}

/// Adam on [`error`] from `start`, with `K` held; calls `progress(epoch,
/// error)` every step, with the error of the weights the step started
/// from (which the gradient computes anyway). Weights that no position
/// uses keep their values.
pub fn fit(
    data: &DataSet,
    start: &Weights,
    k: f64,
    options: FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> Weights {
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut w = start.clone();
    let mut m = vec![0.0; 2 * N];
    let mut v = vec![0.0; 2 * N];
    for epoch in 1..=options.epochs {
        let (g, e) = gradient(data, &w, k);
        let t = epoch.min(i32::MAX as usize) as i32;
        let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
        for j in 0..2 * N {
            if !options.free.is_empty() && !options.free[j % N] {
                continue;
            }
            let (param, grad) = if j < N {
                (&mut w.mg[j], g.mg[j])
            } else {
                (&mut w.eg[j - N], g.eg[j - N])
            };
            m[j] = beta1 * m[j] + (1.0 - beta1) * grad;
            v[j] = beta2 * v[j] + (1.0 - beta2) * grad * grad;
            let (mh, vh) = (m[j] / c1, v[j] / c2);
            *param -= options.rate * mh / (vh.sqrt() + eps);
        }
        progress(epoch, e);
    }
    w
}

/// The body of `weights.rs` for `table`: everything after its doc comment
/// (which says where the weights came from).
pub fn format_weights(table: &[S; N]) -> String {
    let mut out = String::new();
    out.push_str("use super::eval::{N, S};\n\n#[rustfmt::skip]\npub static WEIGHTS: [S; N] = [\n");
    for (t, &(name, start, len)) in TERMS.iter().enumerate() {
        let _ = writeln!(out, "    // {name}: {}", DOCS[t]);
        for row in table[start..start + len].chunks(8) {
            let cells: Vec<String> = row.iter().map(|w| format!("S({}, {})", w.0, w.1)).collect();
            let _ = writeln!(out, "    {},", cells.join(", "));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::weights::WEIGHTS;

    fn sample() -> (eval::Masks, DataSet) {
        let masks = eval::Masks::new();
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;1
8/5k2/8/3K4/8/8/4P3/8 w - - 0 1;1
8/5k2/8/3K4/8/8/8/q7 w - - 0 1;0
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1;1
r3k2r/ppp2ppp/2n5/3q4/3P4/2N5/PP3PPP/R2QK2R b KQkq - 0 12;0.5
";
        let data = DataSet::parse(&masks, text).unwrap();
        (masks, data)
    }

    /// The traced terms, weighted, give the evaluation itself (up to the
    /// evaluation's integer division).
    #[test]
    fn traced_terms_reproduce_the_evaluation() {
        let (masks, data) = sample();
        let w = Weights::from_table(&WEIGHTS);
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let board: Board = fen.parse().unwrap();
            let exact = eval::evaluate(&masks, &board);
            let traced = w.score(&data, i);
            assert!(
                (traced - f64::from(exact)).abs() < 1.0,
                "{fen}: traced {traced}, evaluated {exact}"
            );
        }
    }

    /// The gradient is the error's: compared with central differences.
    #[test]
    fn gradient_matches_finite_differences() {
        let (_, data) = sample();
        let w = Weights::from_table(&WEIGHTS);
        let k = 1.3;
        let (g, e) = gradient(&data, &w, k);
        assert!((e - error(&data, &w, k)).abs() < 1e-12);
        let used: Vec<usize> = (0..data.len())
            .flat_map(|i| data.terms(i).iter().map(|&(j, _)| j as usize))
            .collect();
        for &j in used.iter().step_by(7) {
            for mg in [true, false] {
                let h = 0.01;
                let mut plus = w.clone();
                let mut minus = w.clone();
                if mg {
                    plus.mg[j] += h;
                    minus.mg[j] -= h;
                } else {
                    plus.eg[j] += h;
                    minus.eg[j] -= h;
                }
                let numeric = (error(&data, &plus, k) - error(&data, &minus, k)) / (2.0 * h);
                let analytic = if mg { g.mg[j] } else { g.eg[j] };
                assert!(
                    (numeric - analytic).abs() <= 1e-6 + 1e-3 * analytic.abs(),
                    "weight {j} ({}): numeric {numeric}, analytic {analytic}",
                    if mg { "mg" } else { "eg" }
                );
            }
        }
    }

    /// On results a known set of weights predicts exactly (labels equal to
    /// its own sigmoid), the fit from other weights lowers the error toward
    /// zero; and it never raises the error on real labels.
    #[test]
    fn fitting_lowers_the_error() {
        let (_, mut data) = sample();
        let truth = Weights::from_table(&WEIGHTS);
        let k = 1.0;
        for i in 0..data.len() {
            data.result[i] = sigmoid(k, truth.score(&data, i));
        }
        let mut start = truth.clone();
        for x in start.mg.iter_mut().chain(start.eg.iter_mut()) {
            *x *= 0.8;
        }
        let before = error(&data, &start, k);
        let options = FitOptions {
            epochs: 300,
            rate: 1.0,
            free: Vec::new(),
        };
        let fitted = fit(&data, &start, k, options.clone(), |_, _| {});
        let after = error(&data, &fitted, k);
        assert!(before > 1e-4, "the perturbed start must be wrong: {before}");
        assert!(after < before / 20.0, "error {before} -> {after}");
        // Only the terms named move.
        let free = term_mask("mobility_knight,TEMPO").unwrap();
        let part = fit(&data, &start, k, FitOptions { free, ..options }, |_, _| {});
        for j in 0..N {
            let moved = part.mg[j] != start.mg[j] || part.eg[j] != start.eg[j];
            let named = (eval::MOBILITY_KNIGHT..eval::MOBILITY_KNIGHT + 9).contains(&j)
                || j == eval::TEMPO;
            assert!(!moved || named, "weight {j} moved");
        }
        assert!(part.mg[eval::TEMPO] != start.mg[eval::TEMPO]);
        assert!(term_mask("psqt,nonsense").unwrap_err().contains("unknown term 'nonsense'"));
    }

    /// `K` is where the error is least: a little either side is worse.
    #[test]
    fn fitted_k_is_a_minimum() {
        let (_, data) = sample();
        let w = Weights::from_table(&WEIGHTS);
        let k = fit_k(&data, &w);
        let e = error(&data, &w, k);
        assert!(error(&data, &w, k * 1.1) >= e && error(&data, &w, k / 1.1) >= e);
    }

    /// The weights file is the formatter's output for its own table: it
    /// was written by the tuner (or by hand to the same layout), and what
    /// the tuner writes compiles back to the same weights.
    #[test]
    fn the_weights_file_is_what_the_tuner_writes() {
        let file = include_str!("weights.rs");
        let body = &file[file.find("use super::eval").expect("the weights file's body")..];
        assert_eq!(body, format_weights(&WEIGHTS));
    }

    #[test]
    fn a_split_keeps_every_position_once() {
        let (_, data) = sample();
        let (rest, held) = data.split_every(3);
        assert_eq!((rest.len(), held.len()), (4, 2));
        assert_eq!(held.terms(1), data.terms(3));
        assert_eq!(rest.terms(2), data.terms(4));
        assert_eq!(held.result, vec![data.result[0], data.result[3]]);
    }

    #[test]
    fn bad_lines_are_named() {
        let masks = eval::Masks::new();
        let e = DataSet::parse(&masks, "8/8/8/8/8/8/8/8 w - - 0 1\n").unwrap_err();
        assert_eq!(e.line, 1);
        let ok = "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1;1\n";
        let e = DataSet::parse(&masks, &format!("{ok}{ok}not a fen;1\n")).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("not a FEN"), "{e}");
        let e = DataSet::parse(&masks, &format!("{ok}8/5k2/8/3K4/8/8/4P3/8 w - - 0 1;2\n"))
            .unwrap_err();
        assert_eq!((e.line, e.message.contains("expected a result")), (2, true));
    }
}
