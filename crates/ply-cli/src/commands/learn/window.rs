//! The replay window kept beside the network (`NETWORK.window`), so that
//! `--resume` trains on the games an unbroken run would have: one line per
//! self-play sample, tab-separated: the generation, the position in the
//! game's notation, the result for the player to move, and the target
//! policy (the search's visit shares, space-separated, by policy index).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use ply_core::registry::Registered;
use ply_learn::selfplay::Sample;

use crate::CliError;

/// The window's file for the network at `out`.
pub(super) fn path(out: &Path) -> PathBuf {
    out.with_extension("window")
}

fn line<G: Registered>(game: &G, generation: usize, s: &Sample<G::State>) -> String {
    let policy: Vec<String> = s.policy.iter().map(f32::to_string).collect();
    format!(
        "{generation}\t{}\t{}\t{}\n",
        game.format_position(&s.state),
        s.value,
        policy.join(" ")
    )
}

/// Adds generation `generation`'s samples to the window's file (a new
/// run's first generation starts it afresh).
pub(super) fn append<G: Registered>(
    game: &G,
    generation: usize,
    samples: &[Sample<G::State>],
    path: &Path,
    fresh: bool,
) -> Result<(), CliError> {
    let text: String = samples.iter().map(|s| line(game, generation, s)).collect();
    let cannot = |e: std::io::Error| {
        CliError::failure(format!(
            "cannot save the replay window to {}: {e}",
            path.display()
        ))
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(!fresh)
        .truncate(fresh)
        .open(path)
        .map_err(cannot)?;
    file.write_all(text.as_bytes()).map_err(cannot)
}

/// Generations `done - keep + 1 ..= done`'s samples from the window's
/// file, oldest first, and the file rewritten to hold just those (lines
/// of a generation after `done`, saved before its network was, are
/// dropped). A missing file is an empty window; a line that does not
/// parse is an error naming the file and the line.
pub(super) fn read<G: Registered>(
    game: &G,
    path: &Path,
    done: usize,
    keep: usize,
) -> Result<Vec<Vec<Sample<G::State>>>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CliError::input(format!(
                "--resume: cannot read the replay window {}: {e}",
                path.display()
            )));
        }
    };
    let first = (done + 1).saturating_sub(keep.max(1)).max(1);
    let mut window: Vec<Vec<Sample<G::State>>> = (first..=done).map(|_| Vec::new()).collect();
    let mut kept = String::new();
    for (i, text_line) in text.lines().enumerate() {
        let (generation, sample) = parse(game, text_line).map_err(|what| {
            CliError::input(format!(
                "--resume: {}: line {}: {what}",
                path.display(),
                i + 1
            ))
        })?;
        if (first..=done).contains(&generation) {
            window[generation - first].push(sample);
            kept += text_line;
            kept.push('\n');
        }
    }
    let tmp = path.with_extension("window.part");
    std::fs::write(&tmp, kept)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::failure(format!("cannot rewrite {}: {e}", path.display())))?;
    Ok(window)
}

/// One line of the file: its generation and sample.
fn parse<G: Registered>(game: &G, text: &str) -> Result<(usize, Sample<G::State>), String> {
    let fields: Vec<&str> = text.split('\t').collect();
    let [generation, position, value, policy] = fields[..] else {
        return Err("expected generation, position, value and policy, tab-separated".into());
    };
    let generation: usize = generation
        .parse()
        .map_err(|_| format!("generation '{generation}' is not a number"))?;
    let state = game.parse_position(position).map_err(|e| e.to_string())?;
    let value: f32 = match value.parse() {
        Ok(v @ -1.0..=1.0) => v,
        _ => return Err(format!("value '{value}' is not between -1 and 1")),
    };
    let policy = policy
        .split(' ')
        .map(|p| p.parse::<f32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("policy '{policy}' is not numbers"))?;
    if policy.len() != game.policy_size() {
        return Err(format!(
            "the policy has {} entries, not the game's {}",
            policy.len(),
            game.policy_size()
        ));
    }
    Ok((
        generation,
        Sample {
            state,
            policy,
            value,
        },
    ))
}
