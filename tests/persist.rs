//! `.evo` files: round trips, and a clear error (never a panic) for every kind of damage.

use std::path::{Path, PathBuf};

use evoboard::champion::Champion;
use evoboard::nn::{Architecture, Topology, nguyen_widrow};
use evoboard::persist::{
    self, CHAMPION_VERSION, CHECKPOINT_VERSION, FileKind, PersistError, decode, encode,
};
use evoboard::rng::rng_for;

fn champion() -> Champion {
    let topology = Topology::new(&[64, 42, 1]).unwrap();
    Champion {
        genes: nguyen_widrow(&topology, &mut rng_for(5, &[])),
        architecture: Architecture::Mlp(topology),
        depth: 2,
        preset: "paper".into(),
        seed: 5,
        generation: 7,
        fitness: 81.0,
        benchmark_win_rate: Some(0.42),
        test_win_rate: None,
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-persist-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn decode_champion(bytes: &[u8]) -> Result<Champion, PersistError> {
    decode(Path::new("test.evo"), bytes, FileKind::Champion, "othello")
}

#[test]
fn champion_round_trips_through_a_file() {
    let dir = temp_dir("round-trip");
    let path = dir.join("champion.evo");
    let original = champion();
    original.save(&path, "othello").unwrap();
    assert_eq!(Champion::load(&path, "othello").unwrap(), original);
    // The atomic write leaves nothing else behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("champion.evo")]);
    // Saving again replaces the file in place.
    let mut changed = original.clone();
    changed.generation = 8;
    changed.save(&path, "othello").unwrap();
    assert_eq!(Champion::load(&path, "othello").unwrap().generation, 8);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_truncation_is_reported_as_such() {
    let bytes = encode(FileKind::Champion, "othello", &champion());
    for len in 0..bytes.len() {
        match decode_champion(&bytes[..len]) {
            Err(PersistError::NotEvo { .. }) => assert!(len < 8, "length {len}"),
            Err(PersistError::Truncated { found, .. }) => assert_eq!(found, len),
            other => panic!("length {len}: {other:?}"),
        }
    }
}

#[test]
fn every_flipped_byte_is_detected() {
    let bytes = encode(FileKind::Champion, "othello", &champion());
    // Every byte of a small file, and a stride through the payload of this one.
    let positions: Vec<usize> = (0..40)
        .chain((40..bytes.len()).step_by(97))
        .chain([bytes.len() - 1])
        .collect();
    for i in positions {
        let mut damaged = bytes.clone();
        damaged[i] ^= 0x5a;
        let error = decode_champion(&damaged).expect_err(&format!("byte {i} flipped"));
        let message = error.to_string();
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn trailing_bytes_wrong_game_wrong_kind_and_other_versions_are_refused() {
    let value = champion();
    let mut longer = encode(FileKind::Champion, "othello", &value);
    longer.push(0);
    assert!(matches!(
        decode_champion(&longer),
        Err(PersistError::Corrupt { .. })
    ));

    let kalah = encode(FileKind::Champion, "kalah", &value);
    match decode_champion(&kalah) {
        Err(PersistError::WrongGame {
            found, expected, ..
        }) => {
            assert_eq!((found.as_str(), expected.as_str()), ("kalah", "othello"));
        }
        other => panic!("{other:?}"),
    }

    let checkpoint_kind = encode(FileKind::Checkpoint, "othello", &value);
    assert!(matches!(
        decode_champion(&checkpoint_kind),
        Err(PersistError::WrongKind { .. })
    ));

    // Each kind has its own version: a champion of the checkpoints' newer version is newer
    // than any champion this build reads.
    let mut newer = encode(FileKind::Champion, "othello", &value);
    assert_eq!(newer[8..12], CHAMPION_VERSION.to_le_bytes());
    newer[8..12].copy_from_slice(&(CHAMPION_VERSION + 1).to_le_bytes());
    newer.truncate(newer.len() - 4);
    let checksum = crc32fast::hash(&newer);
    newer.extend_from_slice(&checksum.to_le_bytes());
    match decode_champion(&newer) {
        Err(error @ PersistError::NewerVersion { .. }) => {
            assert!(error.to_string().contains("newer"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    // A checkpoint of an older version is refused by name, never decoded.
    let mut older = encode(FileKind::Checkpoint, "othello", &value);
    assert_eq!(older[8..12], CHECKPOINT_VERSION.to_le_bytes());
    older[8..12].copy_from_slice(&(CHECKPOINT_VERSION - 1).to_le_bytes());
    older.truncate(older.len() - 4);
    let checksum = crc32fast::hash(&older);
    older.extend_from_slice(&checksum.to_le_bytes());
    match decode::<Vec<u32>>(
        Path::new("old.evo"),
        &older,
        FileKind::Checkpoint,
        "othello",
    ) {
        Err(error @ PersistError::OlderVersion { .. }) => {
            assert!(error.to_string().contains("earlier evoboard"), "{error}");
        }
        other => panic!("{other:?}"),
    }

    let mut not_evo = encode(FileKind::Champion, "othello", &value);
    not_evo[0] = b'X';
    assert!(matches!(
        decode_champion(&not_evo),
        Err(PersistError::NotEvo { .. })
    ));
}

#[test]
fn a_valid_file_with_an_inconsistent_champion_is_refused() {
    let dir = temp_dir("inconsistent");
    let path = dir.join("bad.evo");
    let mut bad = champion();
    bad.genes.pop();
    persist::save(&path, FileKind::Champion, "othello", &bad).unwrap();
    assert!(matches!(
        Champion::load(&path, "othello"),
        Err(PersistError::Corrupt { .. })
    ));
    let missing = Champion::load(&dir.join("missing.evo"), "othello").unwrap_err();
    assert!(matches!(missing, PersistError::Read { .. }) && missing.is_bad_input());
    std::fs::remove_dir_all(dir).unwrap();
}

/// A payload whose first string claims `length` bytes: a champion of the n-tuple family
/// (variant 1) whose tuple set's name is that string. The container is intact (its
/// checksum matches), so only the decoder can refuse it.
fn crafted_champion(length: u64) -> Vec<u8> {
    let mut payload = vec![0x01, 0xFD];
    payload.extend_from_slice(&length.to_le_bytes());
    payload.extend_from_slice(b"short");
    let mut file = encode(FileKind::Champion, "othello", &());
    // `encode` of () gives an empty payload: rebuild the container around ours.
    file.truncate(file.len() - 4 - 8);
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(&payload);
    let checksum = crc32fast::hash(&file);
    file.extend_from_slice(&checksum.to_le_bytes());
    file
}

#[test]
fn declared_lengths_beyond_the_payload_are_refused_before_anything_is_allocated() {
    let dir = temp_dir("crafted");
    for length in [1u64 << 40, 1 << 63, u64::MAX] {
        let path = dir.join(format!("crafted-{length}.evo"));
        std::fs::write(&path, crafted_champion(length)).unwrap();
        match Champion::load(&path, "othello") {
            Err(PersistError::Corrupt { .. }) => {}
            other => panic!("length {length}: {other:?}"),
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn endless_and_oversized_inputs_are_refused_without_reading_them_whole() {
    // /dev/zero never ends: it is a device, not a regular file, so it is not read at all.
    match persist::read(Path::new("/dev/zero")) {
        Err(PersistError::Read { error, .. }) => {
            assert!(error.to_string().contains("not a regular file"), "{error}")
        }
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    // A sparse file past the size limit is refused by its size alone.
    let dir = temp_dir("oversized");
    let path = dir.join("huge.evo");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(persist::MAX_FILE_BYTES + 1).unwrap();
    match persist::read(&path) {
        Err(PersistError::TooLarge { .. }) => {}
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_bounded_reader_reads_regular_files_only_and_never_waits() {
    let dir = temp_dir("bounded");
    let pipe = dir.join("pipe");
    let name = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    std::fs::write(dir.join("small"), "0123456789").unwrap();
    // A pipe with no writer would block an ordinary open forever.
    for path in [pipe.as_path(), Path::new("/dev/zero"), dir.as_path()] {
        let error = persist::read_limited(path, 100).unwrap_err();
        assert!(
            error.to_string().contains("not a regular file"),
            "{path:?}: {error}"
        );
    }
    assert!(matches!(
        persist::read(&pipe),
        Err(PersistError::Read { .. })
    ));
    assert_eq!(
        persist::read_limited(&dir.join("small"), 10).unwrap(),
        b"0123456789"
    );
    let error = persist::read_limited(&dir.join("small"), 9).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stale_temporary_files_are_removed_but_those_of_running_writers_are_kept() {
    let dir = temp_dir("stale");
    let dead = dir.join(".fitness.tmp-4000000000.png");
    let alive = dir.join(format!(".gen-00003.evo.tmp-{}", std::process::id()));
    let kept = dir.join("stats.csv");
    for path in [&dead, &alive, &kept] {
        std::fs::write(path, b"x").unwrap();
    }
    persist::remove_stale_temp_files(&dir);
    assert!(!dead.exists(), "a dead writer's file goes");
    assert!(alive.exists(), "a running writer's file stays");
    assert!(kept.exists());
    std::fs::remove_dir_all(dir).unwrap();
}
