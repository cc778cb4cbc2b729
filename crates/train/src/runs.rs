//! Training data as named datagen runs, and reading any set of them.
//!
//! A run's file is named by what makes it: `EVAL-sSEED-nNODES-gGAMES-REV.bin`, say
//! `gen4-s5101-n5000-g40000-7898c05.bin`: the evaluation that played (`classical`, or a
//! network's name such as `gen4`), the seed, the node limit a move, the number of games and
//! the revision of gogo that played them. A sixth part, `-STARTS`, names where the openings
//! started when not from the rule sets' start positions (`puzzles`: the shipped puzzles'
//! positions; `scripts/data.sh` says how each is made). Game `i` of a seed is the same game whatever the
//! thread count, so the name is enough to make the file again (`scripts/data.sh make`). The
//! header says the seed and the node limit too; a file whose name says otherwise is refused.

use gogo_search::nnue::data::{self, DataHeader, Record};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What one datagen run is, as its file name says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunName {
    /// The evaluation that played: `classical` or a network's name (`gen4`).
    pub evaluation: String,
    /// The seed of the random openings.
    pub seed: u64,
    /// Nodes a move.
    pub nodes: u32,
    /// Games played.
    pub games: u64,
    /// gogo's revision (a git commit, 7 to 40 hex digits).
    pub revision: String,
    /// Where the openings started (a lower-case name), if not from the rule sets' starts.
    pub starts: Option<String>,
}

/// Why a file name is not a run's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunNameError(String);

impl fmt::Display for RunNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (a run is named EVAL-sSEED-nNODES-gGAMES-REV.bin or EVAL-sSEED-nNODES-gGAMES-REV-STARTS.bin)",
            self.0
        )
    }
}

impl std::error::Error for RunNameError {}

impl FromStr for RunName {
    type Err = RunNameError;

    /// Reads `EVAL-sSEED-nNODES-gGAMES-REV[-STARTS]`, with or without `.bin`.
    fn from_str(text: &str) -> Result<RunName, RunNameError> {
        let stem = text.strip_suffix(".bin").unwrap_or(text);
        let parts: Vec<&str> = stem.split('-').collect();
        let (evaluation, seed, nodes, games, revision, starts) = match parts[..] {
            [e, s, n, g, r] => (e, s, n, g, r, None),
            [e, s, n, g, r, starts] => (e, s, n, g, r, Some(starts)),
            _ => return Err(RunNameError(format!("{text:?} has not five or six parts"))),
        };
        let lower_case_name = |name: &str| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        };
        if !lower_case_name(evaluation) {
            return Err(RunNameError(format!(
                "{text:?}: evaluation {evaluation:?} is not a lower-case name"
            )));
        }
        if let Some(starts) = starts.filter(|s| !lower_case_name(s)) {
            return Err(RunNameError(format!(
                "{text:?}: starts {starts:?} is not a lower-case name"
            )));
        }
        fn number<T: FromStr>(text: &str, part: &str, letter: char) -> Result<T, RunNameError> {
            part.strip_prefix(letter)
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|digits| digits.parse().ok())
                .ok_or_else(|| RunNameError(format!("{text:?}: {part:?} is not {letter}NUMBER")))
        }
        let revision_ok = (7..=40).contains(&revision.len())
            && revision
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !revision_ok {
            return Err(RunNameError(format!(
                "{text:?}: revision {revision:?} is not 7 to 40 lower-case hex digits"
            )));
        }
        Ok(RunName {
            evaluation: evaluation.to_string(),
            seed: number(text, seed, 's')?,
            nodes: number(text, nodes, 'n')?,
            games: number(text, games, 'g')?,
            revision: revision.to_string(),
            starts: starts.map(str::to_string),
        })
    }
}

impl fmt::Display for RunName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-s{}-n{}-g{}-{}",
            self.evaluation, self.seed, self.nodes, self.games, self.revision
        )?;
        if let Some(starts) = &self.starts {
            write!(f, "-{starts}")?;
        }
        write!(f, ".bin")
    }
}

impl RunName {
    /// The fields as words, `EVAL SEED NODES GAMES REV STARTS` (STARTS `-` for the rule
    /// sets' starts), for scripts (`gogo-train --run-name`), so that the name's format is
    /// read in one place.
    pub fn fields(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.evaluation,
            self.seed,
            self.nodes,
            self.games,
            self.revision,
            self.starts.as_deref().unwrap_or("-")
        )
    }

    /// Whether a file's header agrees with its name: the same seed and node limit. A header
    /// that says neither (datagen before it wrote them, such as 23527f1) cannot disagree.
    pub fn check(&self, header: &DataHeader) -> Result<(), String> {
        let said = header.seed != 0 || header.nodes != 0;
        if said && (header.seed != self.seed || header.nodes != self.nodes) {
            return Err(format!(
                "the name says seed {} and {} nodes, the header seed {} and {} nodes",
                self.seed, self.nodes, header.seed, header.nodes
            ));
        }
        Ok(())
    }
}

/// One data file to read: a path and, if given, the scale to read its scores at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSource {
    /// The file.
    pub path: PathBuf,
    /// `FILE:K`: its scores read at scale K instead of its header's.
    pub scale: Option<u32>,
}

/// The files named by `--data` arguments: each `FILE`, `FILE:K` or a directory, which
/// stands for every run in it: the files named as runs, sorted by name (so not a run still
/// being written under a hidden name, nor files of other kinds; `DIR:K` gives them all
/// scale K).
pub fn data_sources(arguments: &[String]) -> Result<Vec<DataSource>, String> {
    let mut sources = Vec::new();
    for argument in arguments {
        let (path, scale) = match argument.rsplit_once(':') {
            Some((p, k)) if k.parse::<u32>().is_ok_and(|k| k > 0) => (p, k.parse().ok()),
            _ => (argument.as_str(), None),
        };
        let path = Path::new(path);
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with(".bin") && n.parse::<RunName>().is_ok())
                        && p.is_file()
                })
                .collect();
            if files.is_empty() {
                return Err(format!(
                    "{}: no runs in it (files named EVAL-sSEED-nNODES-gGAMES-REV.bin)",
                    path.display()
                ));
            }
            files.sort();
            sources.extend(files.into_iter().map(|path| DataSource { path, scale }));
        } else {
            sources.push(DataSource {
                path: path.to_path_buf(),
                scale,
            });
        }
    }
    Ok(sources)
}

/// One file read: its scale, its records, and what it is.
#[derive(Debug)]
pub struct DataFile {
    /// The scale its scores are read at.
    pub scale: u32,
    /// Its positions.
    pub records: Vec<Record>,
    /// A line saying what it is: positions, scale, and the run as its name and header say.
    pub summary: String,
}

/// The most a data file may be (some hundred million positions: more than a machine
/// trains on).
pub const DATA_FILE: gogo_files::Limit = gogo_files::Limit::new(16 << 30, "a data file");

/// Reads one source (a regular file of at most [`DATA_FILE`], through a bounded reader). A
/// file named as a run must agree with its header.
pub fn read_source(source: &DataSource) -> Result<DataFile, String> {
    let shown = source.path.display();
    let (header, records) = gogo_files::open(&source.path, DATA_FILE)
        .map_err(|e| data::DataError::Io(e.problem_text()))
        .and_then(|f| data::read_all(&mut std::io::BufReader::new(f)))
        .map_err(|e| format!("{shown}: {e}"))?;
    let run = source
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.parse::<RunName>().ok());
    if let Some(run) = &run {
        run.check(&header).map_err(|e| format!("{shown}: {e}"))?;
    }
    let scale = source.scale.unwrap_or(header.score_scale);
    let origin = match (&run, header.seed, header.nodes) {
        (Some(run), _, _) => format!(
            "{} played {} games at {} nodes a move, seed {}, gogo {}",
            run.evaluation, run.games, run.nodes, run.seed, run.revision
        ),
        (None, 0, 0) => "run not said".to_string(),
        (None, seed, nodes) => format!("datagen seed {seed}, {nodes} nodes a move"),
    };
    Ok(DataFile {
        scale,
        summary: format!(
            "{shown}: {} positions, score scale {scale}, {origin}",
            records.len()
        ),
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(seed: u64, nodes: u32) -> [u8; data::HEADER_BYTES] {
        data::header(323, seed, nodes)
    }

    #[test]
    fn a_run_name_reads_back_as_written() {
        let name: RunName = "gen4-s5101-n5000-g40000-7898c05.bin".parse().unwrap();
        assert_eq!(
            name,
            RunName {
                evaluation: "gen4".into(),
                seed: 5101,
                nodes: 5000,
                games: 40000,
                revision: "7898c05".into(),
                starts: None,
            }
        );
        assert_eq!(name.to_string(), "gen4-s5101-n5000-g40000-7898c05.bin");
        assert_eq!(
            "classical-s4102-n5000-g37945-23527f1".parse::<RunName>(),
            Ok(RunName {
                evaluation: "classical".into(),
                seed: 4102,
                nodes: 5000,
                games: 37945,
                revision: "23527f1".into(),
                starts: None,
            })
        );
        let from_puzzles: RunName = "gen6-s6107-n5000-g20000-abc1234-puzzles.bin"
            .parse()
            .unwrap();
        assert_eq!(from_puzzles.starts.as_deref(), Some("puzzles"));
        assert_eq!(
            from_puzzles.to_string(),
            "gen6-s6107-n5000-g20000-abc1234-puzzles.bin"
        );
        assert_eq!(
            from_puzzles.fields(),
            "gen6 6107 5000 20000 abc1234 puzzles"
        );
        assert_eq!(name.fields(), "gen4 5101 5000 40000 7898c05 -");
    }

    #[test]
    fn names_that_are_not_runs_are_refused_with_the_reason() {
        for (text, reason) in [
            ("gen4-s4101-n5000.bin", "five or six parts"),
            ("gen4-s4101-n5000-g10-7898c05-x-y.bin", "five or six parts"),
            ("gen4-s4101-n5000-g10-7898c05-X.bin", "starts"),
            ("gen4-s4101-n5000-g10-7898c05-.bin", "starts"),
            ("Gen4-s1-n5000-g10-7898c05", "lower-case"),
            ("gen4-1-n5000-g10-7898c05", "sNUMBER"),
            ("gen4-s1-n-g10-7898c05", "nNUMBER"),
            ("gen4-s1-n5000-g+10-7898c05", "gNUMBER"),
            ("gen4-s1-n99999999999-g10-7898c05", "nNUMBER"),
            ("gen4-s1-n5000-g10-main", "hex"),
            ("gen4-s1-n5000-g10-7898C05", "hex"),
            ("gen4-s1-n5000-g10-789", "hex"),
            ("", "five or six parts"),
        ] {
            let e = text.parse::<RunName>().unwrap_err().to_string();
            assert!(e.contains(reason), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_header_must_agree_with_the_name() {
        let name: RunName = "gen4-s5101-n5000-g40000-7898c05".parse().unwrap();
        let read = |h| data::read_header(&h).unwrap();
        assert_eq!(name.check(&read(header(5101, 5000))), Ok(()));
        assert!(name.check(&read(header(5102, 5000))).is_err());
        assert!(name.check(&read(header(5101, 4000))).is_err());
        assert!(name.check(&read(header(0, 5000))).is_err());
        // Older datagen did not say: nothing to disagree with.
        assert_eq!(name.check(&read(header(0, 0))), Ok(()));
    }

    fn write(path: &Path, seed: u64, nodes: u32, records: &[Record]) {
        let mut bytes = header(seed, nodes).to_vec();
        data::write_records(&mut bytes, records).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    fn sample_records(n: usize) -> Vec<Record> {
        let start = gogo_rules::Position::startpos();
        (0..n)
            .map(|i| Record {
                position: start.clone(),
                score: i as i16,
                result: data::GameResult::Draw,
                ply: 0,
            })
            .collect()
    }

    #[test]
    fn a_directory_reads_as_its_runs_and_a_misnamed_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("gogo-train-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write(
            &dir.join("gen4-s2-n5000-g1-7898c05.bin"),
            2,
            5000,
            &sample_records(3),
        );
        write(
            &dir.join("classical-s1-n5000-g1-7898c05.bin"),
            1,
            5000,
            &sample_records(2),
        );
        // A run still being written, a file not named as a run, and a file of another
        // kind: not read from a directory.
        write(
            &dir.join(".partial-gen4-s3-n5000-g1-7898c05.bin"),
            3,
            5000,
            &[],
        );
        write(
            &dir.join("gen4-s4101-n5000.bin"),
            4101,
            5000,
            &sample_records(1),
        );
        std::fs::write(dir.join("README.md"), "notes").unwrap();
        let arg = dir.display().to_string();
        let sources = data_sources(std::slice::from_ref(&arg)).unwrap();
        let names: Vec<_> = sources
            .iter()
            .map(|s| s.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "classical-s1-n5000-g1-7898c05.bin",
                "gen4-s2-n5000-g1-7898c05.bin"
            ]
        );
        let files: Vec<_> = sources.iter().map(|s| read_source(s).unwrap()).collect();
        assert_eq!(files[0].records.len(), 2);
        assert_eq!(files[1].records.len(), 3);
        assert_eq!(files[1].scale, 323);
        assert!(files[1]
            .summary
            .contains("gen4 played 1 games at 5000 nodes a move, seed 2"));
        // DIR:K gives every file in it the scale K.
        let scaled = data_sources(&[format!("{arg}:300")]).unwrap();
        assert!(scaled.iter().all(|s| s.scale == Some(300)));
        // A file whose header says another seed than its name is refused, whole.
        write(
            &dir.join("gen4-s9-n5000-g1-7898c05.bin"),
            8,
            5000,
            &sample_records(1),
        );
        let e = data_sources(&[arg])
            .unwrap()
            .iter()
            .map(read_source)
            .find_map(Result::err)
            .unwrap();
        assert!(e.contains("the name says seed 9"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        let empty = std::env::temp_dir().join(format!("gogo-train-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        assert!(data_sources(&[empty.display().to_string()])
            .unwrap_err()
            .contains("no runs in it"));
        std::fs::remove_dir_all(&empty).unwrap();
    }
}
