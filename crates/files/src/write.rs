//! Writing: an [`Output`] checked before any work starts, written through a temporary file
//! of a unique name beside it and renamed over it once whole.

use crate::error::{kind_in_words, FileError, Problem};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file a tool is to write, checked when named: nothing but a regular file (or nothing)
/// is there, once any link is followed, and it is none of the run's inputs.
#[derive(Debug)]
pub struct Output {
    /// The path as the person named it (for messages).
    named: PathBuf,
    /// Where the file is: `named`, or the file a link there names (the link is kept).
    target: PathBuf,
    /// The file there now, if any.
    existing: Option<std::fs::Metadata>,
}

/// Whether two metadata are of the same file.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

impl Output {
    /// Checks `path` as the output of a run that reads `inputs`: refused if it is a
    /// directory, a device, a FIFO or a socket (or a link to one, or to nothing), if it is
    /// one of `inputs` (by device and inode, so another name for the same file is caught),
    /// or if its folder is missing.
    pub fn new(path: &Path, inputs: &[&Path]) -> Result<Output, FileError> {
        let io = |e| FileError::io(path, e);
        let target = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).map_err(io)?,
            Ok(_) => path.to_path_buf(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
            Err(e) => return Err(io(e)),
        };
        let existing = match std::fs::metadata(&target) {
            Ok(m) if !m.is_file() => {
                return Err(FileError::new(
                    path,
                    Problem::NotRegular(kind_in_words(m.file_type())),
                ))
            }
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(e)),
        };
        if let Some(out) = &existing {
            for input in inputs {
                if std::fs::metadata(input).is_ok_and(|m| same_file(&m, out)) {
                    return Err(FileError::new(path, Problem::IsAnInput));
                }
            }
        }
        let folder = folder_of(&target);
        if !folder.is_dir() {
            return Err(FileError::io(
                path,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("no folder {}", folder.display()),
                ),
            ));
        }
        Ok(Output {
            named: path.to_path_buf(),
            target,
            existing,
        })
    }

    /// The path as it was named.
    pub fn path(&self) -> &Path {
        &self.named
    }

    /// Whether a file is there now (which the tool must have read as its own kind before
    /// it writes over it).
    pub fn exists(&self) -> bool {
        self.existing.is_some()
    }

    /// Writes `bytes` as the whole file: a temporary file beside it, synced, then renamed
    /// over it.
    pub fn write(&self, bytes: &[u8]) -> Result<(), FileError> {
        let mut pending = self.create()?;
        pending
            .write_all(bytes)
            .map_err(|e| FileError::io(&self.named, e))?;
        pending.commit()
    }

    /// A temporary file of a unique name beside the output (made new: no file of that name
    /// is replaced), with the old file's permissions, to be written and then
    /// [committed](PendingFile::commit); dropped uncommitted, it is removed.
    pub fn create(&self) -> Result<PendingFile, FileError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let folder = folder_of(&self.target);
        let name = self
            .target
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy().into_owned());
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for _ in 0..100 {
            let temp = folder.join(format!(
                ".{name}.{}-{}-{nanos}.tmp",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match File::options().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    if let Some(old) = &self.existing {
                        let _ = file.set_permissions(old.permissions());
                    }
                    return Ok(PendingFile {
                        file: Some(BufWriter::new(file)),
                        temp,
                        target: self.target.clone(),
                        named: self.named.clone(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(FileError::io(&temp, e)),
            }
        }
        Err(FileError::io(
            &self.named,
            std::io::Error::other("no unique temporary name beside it"),
        ))
    }

    /// The output opened to add to its end (made if it is not there): for a tool that adds
    /// its results as they come and has read the file as its own kind first. The file is
    /// checked again when opened.
    pub fn append(&self) -> Result<File, FileError> {
        let io = |e| FileError::io(&self.named, e);
        let file = File::options()
            .append(true)
            .create(true)
            .open(&self.target)
            .map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        let same = self.existing.as_ref().is_none_or(|m| same_file(m, &meta));
        if !meta.is_file() || !same {
            return Err(FileError::io(
                &self.named,
                std::io::Error::other("changed since it was checked"),
            ));
        }
        Ok(file)
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The temporary file of an [`Output`] being written.
#[derive(Debug)]
pub struct PendingFile {
    file: Option<BufWriter<File>>,
    temp: PathBuf,
    target: PathBuf,
    named: PathBuf,
}

impl PendingFile {
    /// Syncs the temporary file and renames it over the output (a file of another kind put
    /// there meanwhile is not replaced); then syncs the folder, so that the new name lasts.
    pub fn commit(mut self) -> Result<(), FileError> {
        let io = |e| FileError::io(&self.named, e);
        let file = self
            .file
            .take()
            .expect("a pending file is committed once")
            .into_inner()
            .map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        drop(file);
        if let Ok(m) = std::fs::metadata(&self.target) {
            if !m.is_file() {
                let _ = std::fs::remove_file(&self.temp);
                return Err(FileError::new(
                    &self.named,
                    Problem::NotRegular(kind_in_words(m.file_type())),
                ));
            }
        }
        std::fs::rename(&self.temp, &self.target).map_err(io)?;
        if let Ok(folder) = File::open(folder_of(&self.target)) {
            let _ = folder.sync_all();
        }
        Ok(())
    }
}

impl Write for PendingFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gogo-write-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_nothing_beside_it() {
        let dir = scratch("whole");
        let out = dir.join("book.db");
        // A file named as the old temporary was is not touched.
        std::fs::write(dir.join("book.tmp"), "keep").unwrap();
        Output::new(&out, &[]).unwrap().write(b"one").unwrap();
        Output::new(&out, &[]).unwrap().write(b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "two");
        assert_eq!(entries(&dir), ["book.db", "book.tmp"]);
        // Dropped before it is committed: the old file stands, no temporary is left.
        let mut pending = Output::new(&out, &[]).unwrap().create().unwrap();
        pending.write_all(b"half").unwrap();
        drop(pending);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "two");
        assert_eq!(entries(&dir), ["book.db", "book.tmp"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_regular_file_that_is_no_input_is_written_over() {
        let dir = scratch("refuse");
        let error = Output::new(&dir, &[]).unwrap_err().to_string();
        assert!(error.contains("a directory"), "{error}");
        let error = Output::new(Path::new("/dev/null"), &[])
            .unwrap_err()
            .to_string();
        assert!(error.contains("a character device"), "{error}");
        let input = dir.join("in.tsv");
        std::fs::write(&input, "x").unwrap();
        let error = Output::new(&input, &[&input]).unwrap_err().to_string();
        assert!(error.contains("also an input"), "{error}");
        // Another name for the same file is the same file.
        let hard = dir.join("hard.tsv");
        std::fs::hard_link(&input, &hard).unwrap();
        assert!(Output::new(&hard, &[&input]).is_err());
        let missing = dir.join("no-such-folder").join("out");
        assert!(Output::new(&missing, &[]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_is_kept_and_its_file_replaced() {
        let dir = scratch("link");
        let real = dir.join("real.db");
        std::fs::write(&real, "old").unwrap();
        let link = dir.join("link.db");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        Output::new(&link, &[]).unwrap().write(b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        let to_device = dir.join("null");
        std::os::unix::fs::symlink("/dev/null", &to_device).unwrap();
        assert!(Output::new(&to_device, &[]).is_err());
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("gone"), &dangling).unwrap();
        assert!(Output::new(&dangling, &[]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn appending_adds_to_the_checked_file() {
        let dir = scratch("append");
        let out = dir.join("p.tsv");
        std::fs::write(&out, "a\n").unwrap();
        let output = Output::new(&out, &[]).unwrap();
        output.append().unwrap().write_all(b"b\n").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "a\nb\n");
        // Replaced meanwhile by another file: refused.
        std::fs::rename(&out, dir.join("old.tsv")).unwrap();
        std::fs::write(&out, "other\n").unwrap();
        assert!(output.append().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
