//! Records files as oh7 reads and writes them: JSON Lines, plain or compressed. Reading knows a
//! file by its first bytes (gzip, Zstandard, or plain text), so a renamed file still reads;
//! writing chooses by the name (`.gz`, `.zst`, either before a trailing `.part`).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::{SimError, io};

/// How a records file is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain JSON Lines.
    None,
    /// gzip (`.jsonl.gz`).
    Gzip,
    /// Zstandard (`.jsonl.zst`).
    Zstd,
}

impl Compression {
    /// The compression a file written to `path` gets: by its name's last extension, a trailing
    /// `.part` (a file being written) aside.
    pub fn of_name(path: &Path) -> Compression {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let name = name.strip_suffix(".part").unwrap_or(&name);
        if name.ends_with(".gz") {
            Compression::Gzip
        } else if name.ends_with(".zst") || name.ends_with(".zstd") {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// The compression of data that starts with `head` (its magic number).
    fn of_bytes(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// Open a records file for reading, decompressed if it is gzip or Zstandard (whatever its name).
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, SimError> {
    let file = File::open(path).map_err(|source| SimError::Open { path: path.into(), source })?;
    let mut f = BufReader::with_capacity(1 << 20, file);
    let kind = Compression::of_bytes(f.fill_buf().map_err(io(path))?);
    Ok(match kind {
        Compression::None => Box::new(f),
        // Multi-member: `cat a.gz b.gz` is one gzip stream to gunzip, and to us.
        Compression::Gzip => Box::new(BufReader::with_capacity(1 << 20, flate2::bufread::MultiGzDecoder::new(f))),
        Compression::Zstd => {
            let d = zstd::stream::read::Decoder::with_buffer(f).map_err(io(path))?;
            Box::new(BufReader::with_capacity(1 << 20, d))
        }
    })
}

/// A records file being written, compressed as its name says. [`Writer::finish`] must be
/// called: a compressed file is complete only then.
pub struct Writer {
    path: PathBuf,
    out: Option<Out>,
}

enum Out {
    Plain(BufWriter<File>),
    Gzip(flate2::write::GzEncoder<BufWriter<File>>),
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<File>>),
}

impl Writer {
    /// Create (or truncate) `path`.
    pub fn create(path: &Path) -> Result<Writer, SimError> {
        let f = BufWriter::with_capacity(1 << 20, File::create(path).map_err(io(path))?);
        let out = match Compression::of_name(path) {
            Compression::None => Out::Plain(f),
            // Level 6, gzip's default: 8 times smaller than the text (kod7 4), but on one thread
            // writing takes about 5 times as long as playing heuristic games (level 1: twice
            // as large, as fast as plain). `.zst` is the choice for speed.
            Compression::Gzip => Out::Gzip(flate2::write::GzEncoder::new(f, flate2::Compression::default())),
            // Level 3, zstd's default: 7 times smaller, written as fast as plain text.
            Compression::Zstd => Out::Zstd(zstd::stream::write::Encoder::new(f, 3).map_err(io(path))?),
        };
        Ok(Writer { path: path.to_path_buf(), out: Some(out) })
    }

    fn inner(&mut self) -> &mut dyn Write {
        match self.out.as_mut().expect("a writer is not used after finish") {
            Out::Plain(w) => w,
            Out::Gzip(w) => w,
            Out::Zstd(w) => w,
        }
    }

    /// Write bytes.
    pub fn write_all(&mut self, b: &[u8]) -> Result<(), SimError> {
        let path = self.path.clone();
        self.inner().write_all(b).map_err(io(&path))
    }

    /// End the stream (a compressed file's trailer) and flush to the file.
    pub fn finish(&mut self) -> Result<(), SimError> {
        let path = self.path.clone();
        let mut f = match self.out.take() {
            None => return Ok(()),
            Some(Out::Plain(w)) => w,
            Some(Out::Gzip(w)) => w.finish().map_err(io(&path))?,
            Some(Out::Zstd(w)) => w.finish().map_err(io(&path))?,
        };
        f.flush().map_err(io(&path))
    }
}

/// How many records the files hold: from their shard headers where every file has one (no
/// reading past the first line), else by counting their lines (decompressing if need be). For
/// a progress bar whose end is known; the readers check the count again.
pub fn count_records(paths: &[PathBuf]) -> Result<u64, SimError> {
    let mut total = 0;
    for p in paths {
        total += match crate::header_of(p)? {
            Some(h) => h.to - h.from,
            None => count_lines(p)?,
        };
    }
    Ok(total)
}

/// Non-blank lines of a file (a line of spaces alone counts: records files have none).
fn count_lines(path: &Path) -> Result<u64, SimError> {
    let mut r = open(path)?;
    let (mut n, mut last) = (0u64, b'\n');
    let mut buf = vec![0u8; 1 << 20];
    loop {
        // A file that cannot be read to its end is counted up to there: the reader that
        // follows says where it is cut.
        let k = r.read(&mut buf).unwrap_or(0);
        if k == 0 {
            break;
        }
        let b = &buf[..k];
        // Line ends that close a non-empty line: each `\n` found (a SIMD search) whose
        // previous byte is not one too.
        for at in memchr::memchr_iter(b'\n', b) {
            let prev = if at == 0 { last } else { b[at - 1] };
            n += u64::from(prev != b'\n');
        }
        last = b[k - 1];
    }
    Ok(n + u64::from(last != b'\n'))
}

/// The header of a run's shard, read from the first line of a (possibly compressed) file.
pub(crate) fn first_line(path: &Path) -> Result<Vec<u8>, SimError> {
    let mut first = Vec::new();
    // A file cut inside its first line has no header; the record reader says where it is cut.
    let _ = open(path)?.read_until(b'\n', &mut first);
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &[u8]) {
        let mut w = Writer::create(path).unwrap();
        w.write_all(text).unwrap();
        w.finish().unwrap();
    }

    #[test]
    fn compressed_by_name_read_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"{\"a\":1}\n\n{\"b\":2}\n  \n{\"c\":3}\n".repeat(50);
        for (name, magic) in
            [("r.jsonl", &b"{"[..]), ("r.jsonl.gz", &[0x1f, 0x8b]), ("r.jsonl.zst.part", &[0x28, 0xb5])]
        {
            let p = dir.path().join(name);
            write(&p, &text);
            assert!(std::fs::read(&p).unwrap().starts_with(magic), "{name}");
            // Renamed, it still reads: the content says what it is.
            let renamed = dir.path().join("renamed.txt");
            std::fs::rename(&p, &renamed).unwrap();
            let mut back = Vec::new();
            open(&renamed).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, text, "{name}");
            // 50 × 3 non-blank lines (the `  ` line is blank to the reader but counted here:
            // the count is for a progress bar; records files have no such lines).
            assert_eq!(count_lines(&renamed).unwrap(), 200, "{name}");
        }
    }

    #[test]
    fn line_counts() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.jsonl");
        for (text, n) in [("", 0), ("\n", 0), ("a", 1), ("a\n", 1), ("\na\n\nb", 2), ("a\n\n\n\nb\n", 2)] {
            std::fs::write(&p, text).unwrap();
            assert_eq!(count_lines(&p).unwrap(), n, "{text:?}");
        }
    }

    #[test]
    fn names() {
        for (name, c) in [
            ("a.jsonl", Compression::None),
            ("a.JSONL.GZ", Compression::Gzip),
            ("a.jsonl.zst", Compression::Zstd),
            ("a.jsonl.zst.part", Compression::Zstd),
            ("a.part", Compression::None),
        ] {
            assert_eq!(Compression::of_name(Path::new(name)), c, "{name}");
        }
    }
}
