//! The quantised network and its file format.
//!
//! # File format (version 1, little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `GOGONNUE` |
//! | 4 | version, 1 |
//! | 4 × 5 | features (520), hidden width (256), QA (511), QB (1024), SCALE (400) |
//! | 2 × features × hidden | first-layer weights, `i16`, feature by feature |
//! | 2 × hidden | first-layer biases, `i16` |
//! | 2 × 2 × hidden | output weights, `i16`, the side to move's half first |
//! | 4 | output bias, `i32` (scale QA · QB) |
//! | 8 | FNV-1a 64 hash of every byte before it |
//!
//! A file of another size, magic, version or shape, or whose hash does not match, is
//! refused with a [`NetworkError`] saying which.

use super::{FEATURES, HIDDEN, QA, QB, SCALE};
use std::fmt;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"GOGONNUE";
const VERSION: u32 = 1;
pub(crate) const HEADER_BYTES: usize = 8 + 4 + 5 * 4;

/// Size in bytes of a version-1 file with this crate's shape.
pub const FILE_BYTES: usize =
    HEADER_BYTES + 2 * FEATURES * HIDDEN + 2 * HIDDEN + 2 * 2 * HIDDEN + 4 + 8;

/// The most a network file may be: exactly its size (a file that grows while it is read is
/// refused).
const NETWORK_FILE: gogo_files::Limit = gogo_files::Limit::new(FILE_BYTES as u64, "a network file");

/// The network gogo plays with unless told otherwise (`EvalFile`), built into the binary.
/// How it was made: `nets/README.md` in this crate.
static EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");
/// How the built-in network was made, and its score scale.
static EMBEDDED_PROVENANCE: &str = include_str!("../../nets/default.nnue.txt");

/// The built-in network's score scale, from its provenance file (see
/// [`super::score_scale_in`]): 100 cp of its scores is `1 / (1 + e^(-100 / K))`.
pub fn embedded_score_scale() -> f64 {
    super::score_scale_in(EMBEDDED_PROVENANCE).expect("default.nnue.txt gives its score scale")
}

/// A network file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Io(String),
    /// The path is not a regular file (a device, a pipe, a directory).
    NotAFile,
    /// The size is not that of a network of this shape (a truncated or foreign file).
    Size {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The file does not start with `GOGONNUE`.
    Magic,
    /// A format version this build does not read.
    Version(u32),
    /// Another shape or other quantisation constants than this build's.
    Shape {
        /// The header field that differs.
        field: &'static str,
        /// Its value in the file.
        found: u32,
        /// The value this build needs.
        expected: u32,
    },
    /// The bytes do not hash to the stored hash: the file is damaged.
    Checksum,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "cannot read the network file: {e}"),
            NetworkError::NotAFile => f.write_str("not a regular file"),
            NetworkError::Size { expected, found } => write!(
                f,
                "a network file has {expected} bytes, this one {found} (truncated or not a gogo network)"
            ),
            NetworkError::Magic => f.write_str("not a gogo network (no GOGONNUE magic)"),
            NetworkError::Version(v) => {
                write!(f, "network format version {v}; this build reads version {VERSION}")
            }
            NetworkError::Shape {
                field,
                found,
                expected,
            } => write!(f, "network {field} is {found}; this build needs {expected}"),
            NetworkError::Checksum => f.write_str("the network file is damaged (hash mismatch)"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a, 64 bits: enough to tell a damaged file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The quantised weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer, one row of [`HIDDEN`] weights per feature.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    /// First-layer biases.
    pub feature_bias: [i16; HIDDEN],
    /// Output weights: the side to move's accumulator first, then the other's.
    pub output_weights: [i16; 2 * HIDDEN],
    /// Output bias, at scale QA · QB.
    pub output_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:016x})", fnv1a(&self.to_bytes()))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out: [u8; N] = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("the size was checked");
        self.at += N;
        out
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
}

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))
        })
        .clone()
    }

    /// Reads a network file: a regular file of exactly [`FILE_BYTES`], read as every tool
    /// reads a file (`gogo_files`: checked from its metadata before it is opened and again
    /// once open, opened without blocking, so a pipe put there between the two checks cannot
    /// hold the engine, and read through a reader bounded at that size).
    pub fn load(path: &std::path::Path) -> Result<Network, NetworkError> {
        let meta = std::fs::metadata(path).map_err(|e| NetworkError::Io(e.to_string()))?;
        // The size is told apart first: "not a network's size" says more than "too large".
        if meta.is_file() && meta.len() != FILE_BYTES as u64 {
            return Err(NetworkError::Size {
                expected: FILE_BYTES,
                found: usize::try_from(meta.len()).unwrap_or(usize::MAX),
            });
        }
        let bytes = gogo_files::read(path, NETWORK_FILE).map_err(|e| match e.problem {
            gogo_files::Problem::NotRegular(_) => NetworkError::NotAFile,
            _ => NetworkError::Io(e.problem_text()),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Reads a network from the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() >= MAGIC.len() && &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::Magic);
        }
        if bytes.len() >= HEADER_BYTES {
            let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
            if version != VERSION {
                return Err(NetworkError::Version(version));
            }
        }
        if bytes.len() != FILE_BYTES {
            // A header of another shape says more than the size does.
            if bytes.len() >= HEADER_BYTES {
                Network::check_shape(&mut Reader { bytes, at: 12 })?;
            }
            return Err(NetworkError::Size {
                expected: FILE_BYTES,
                found: bytes.len(),
            });
        }
        let mut r = Reader { bytes, at: 12 };
        Network::check_shape(&mut r)?;
        let body = &bytes[..FILE_BYTES - 8];
        let stored = u64::from_le_bytes(bytes[FILE_BYTES - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != stored {
            return Err(NetworkError::Checksum);
        }
        let mut net = Network::zeroed();
        for row in net.feature_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in net.feature_bias.iter_mut() {
            *b = r.i16();
        }
        for w in net.output_weights.iter_mut() {
            *w = r.i16();
        }
        net.output_bias = i32::from_le_bytes(r.take());
        Ok(net)
    }

    fn check_shape(r: &mut Reader<'_>) -> Result<(), NetworkError> {
        for (field, expected) in [
            ("feature count", FEATURES as u32),
            ("hidden width", HIDDEN as u32),
            ("QA", QA as u32),
            ("QB", QB as u32),
            ("SCALE", SCALE as u32),
        ] {
            let found = r.u32();
            if found != expected {
                return Err(NetworkError::Shape {
                    field,
                    found,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// A network with every weight 0 (it evaluates everything as 0).
    pub fn zeroed() -> Network {
        Network {
            feature_weights: vec![[0; HIDDEN]; FEATURES],
            feature_bias: [0; HIDDEN],
            output_weights: [0; 2 * HIDDEN],
            output_bias: 0,
        }
    }

    /// The network as a file (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            FEATURES as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for row in &self.feature_weights {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.feature_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &self.output_weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// The evaluation in centipawns for the side to move, from the two accumulators.
    #[inline]
    pub fn evaluate(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(HIDDEN);
        let sum = super::simd::screlu_dot(us, w_us) + super::simd::screlu_dot(them, w_them);
        let out = sum / QA as i64 + self.output_bias as i64;
        // Extreme weights must not reach the mate scores (or wrap in the cast).
        let max = crate::value::MAX_EVAL as i64;
        (out.saturating_mul(SCALE as i64) / (QA * QB) as i64).clamp(-max, max) as i32
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use gogo_rules::Rng;

    /// A network with small random weights: enough to tell positions apart in tests.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |range: i32| (rng.below(2 * range as usize + 1) as i32 - range) as i16;
        let mut net = Network::zeroed();
        for row in net.feature_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = small(40);
            }
        }
        for b in net.feature_bias.iter_mut() {
            *b = small(60) + 60;
        }
        for w in net.output_weights.iter_mut() {
            *w = small(100);
        }
        net.output_bias = 1000;
        net
    }

    #[test]
    fn files_round_trip() {
        let net = random_network(1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = random_network(2).to_bytes();
        let truncated = &good[..good.len() - 100];
        assert_eq!(
            Network::from_bytes(truncated),
            Err(NetworkError::Size {
                expected: FILE_BYTES,
                found: FILE_BYTES - 100
            })
        );
        assert_eq!(
            Network::from_bytes(&[]),
            Err(NetworkError::Size {
                expected: FILE_BYTES,
                found: 0
            })
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic), Err(NetworkError::Magic));
        let mut version = good.clone();
        version[8] = 9;
        assert_eq!(Network::from_bytes(&version), Err(NetworkError::Version(9)));
        let mut shape = good.clone();
        shape[16..20].copy_from_slice(&128u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&shape),
            Err(NetworkError::Shape {
                field: "hidden width",
                found: 128,
                expected: HIDDEN as u32
            })
        );
        let mut damaged = good.clone();
        damaged[5000] ^= 1;
        assert_eq!(Network::from_bytes(&damaged), Err(NetworkError::Checksum));
        assert!(matches!(
            Network::load(std::path::Path::new("/nonexistent.nnue")),
            Err(NetworkError::Io(_))
        ));
        // Every error says something a user can act on.
        for e in [
            NetworkError::Magic,
            NetworkError::Checksum,
            NetworkError::Version(2),
        ] {
            assert!(e.to_string().len() > 20);
        }
    }

    #[test]
    fn the_score_scales_come_from_the_provenance() {
        assert_eq!(embedded_score_scale(), 330.0);
        assert_eq!(crate::eval::classical_score_scale(), 790.0);
        assert_eq!(
            super::super::score_scale_in("x\nscore scale: 12.5 (why)"),
            Some(12.5)
        );
        assert_eq!(super::super::score_scale_in("no scale here"), None);
    }

    #[test]
    fn the_embedded_network_reads() {
        let net = Network::embedded();
        assert_eq!(net.feature_weights.len(), FEATURES);
    }

    /// Weights at the ends of the `i16` range, with a valid hash: the evaluation stays
    /// within [`crate::value::MAX_EVAL`] (it reached past the mate scores before the clamp).
    #[test]
    fn extreme_weights_stay_below_the_mate_scores() {
        use crate::nnue::accumulator::Accumulator;
        use gogo_rules::Position;
        for (weight, output) in [(i16::MAX, i16::MAX), (i16::MAX, i16::MIN), (1, i16::MAX)] {
            let mut net = Network::zeroed();
            for row in net.feature_weights.iter_mut() {
                row.fill(weight);
            }
            net.feature_bias.fill(weight);
            net.output_weights.fill(output);
            net.output_bias = i32::MAX;
            let net = Network::from_bytes(&net.to_bytes()).unwrap();
            for sfen in ["startpos", "k4/5/5/5/4K b - 1", "rbsgk/4p/5/P4/KGSBR w - 1"] {
                let pos = Position::from_sfen(sfen).unwrap();
                let acc = Accumulator::refresh(&net, &pos);
                let score = net.evaluate(&acc.0[0], &acc.0[1]);
                assert!(score.abs() <= crate::value::MAX_EVAL, "{score}");
            }
        }
        // And a plain network is not clamped.
        let net = random_network(2);
        let acc = Accumulator::refresh(&net, &Position::startpos());
        assert!(net.evaluate(&acc.0[0], &acc.0[1]).abs() < crate::value::MAX_EVAL);
    }

    /// `load` refuses what is not a regular file of the right size without reading it:
    /// `/dev/zero` (endless), a pipe with no writer (opening it would block), a directory,
    /// a file too long.
    #[test]
    fn load_refuses_devices_pipes_and_wrong_sizes() {
        let dir = std::env::temp_dir().join(format!("gogo-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = std::time::Instant::now();
        assert_eq!(
            Network::load(std::path::Path::new("/dev/zero")),
            Err(NetworkError::NotAFile)
        );
        let fifo = dir.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(Network::load(&fifo), Err(NetworkError::NotAFile));
        }
        assert_eq!(Network::load(&dir), Err(NetworkError::NotAFile));
        let long = dir.join("long.nnue");
        let mut bytes = Network::embedded().to_bytes();
        bytes.push(0);
        std::fs::write(&long, &bytes).unwrap();
        assert_eq!(
            Network::load(&long),
            Err(NetworkError::Size {
                expected: FILE_BYTES,
                found: FILE_BYTES + 1
            })
        );
        bytes.pop();
        std::fs::write(&long, &bytes).unwrap();
        assert_eq!(Network::load(&long).as_ref(), Ok(&*Network::embedded()));
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
