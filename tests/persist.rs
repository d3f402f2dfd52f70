//! `.evo` files: round trips, and a clear error (never a panic) for every kind of damage.

use std::path::{Path, PathBuf};

use evoboard::Othello;
use evoboard::champion::Champion;
use evoboard::eval::neural::NeuralInput;
use evoboard::nn::ntuple::GlobalFeature;
use evoboard::nn::{Architecture, Topology, TupleSpec, nguyen_widrow};
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

/// `file` with the bytes at `offset` replaced by `field` and its checksum made to match.
fn with_header_field(file: &[u8], offset: usize, field: &[u8]) -> Vec<u8> {
    let mut crafted = file[..file.len() - 4].to_vec();
    crafted[offset..offset + field.len()].copy_from_slice(field);
    let checksum = crc32fast::hash(&crafted);
    crafted.extend_from_slice(&checksum.to_le_bytes());
    crafted
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
    assert_eq!(
        Champion::load_for(&path, &Othello::start()).unwrap(),
        original
    );
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
    assert_eq!(
        Champion::load_for(&path, &Othello::start())
            .unwrap()
            .generation,
        8
    );
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

    // Format versions start at 1: a version 0 with a valid checksum is crafted.
    let zero = with_header_field(
        &encode(FileKind::Champion, "othello", &value),
        8,
        &0u32.to_le_bytes(),
    );
    match decode_champion(&zero) {
        Err(error @ PersistError::Corrupt { .. }) => {
            assert!(error.to_string().contains("version 0"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    // A game name read from a file is printed with its control characters escaped.
    let hostile = encode(FileKind::Champion, "oth\x1b[2Jello\n", &value);
    let message = decode_champion(&hostile).unwrap_err().to_string();
    assert!(
        message.contains("oth\\u{1b}[2Jello\\n") && !message.chars().any(char::is_control),
        "{message}"
    );

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
        Champion::load_for(&path, &Othello::start()),
        Err(PersistError::Unplayable { .. })
    ));
    let missing = Champion::load_for(&dir.join("missing.evo"), &Othello::start()).unwrap_err();
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
        match Champion::load_for(&path, &Othello::start()) {
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

/// An n-tuple network for Othello of `tuples` and `features` with every weight zero: built
/// as the library builds any champion, so that only the loader can refuse it.
fn tuple_champion(tuples: Vec<Vec<u8>>, features: Vec<GlobalFeature>) -> Champion {
    let spec = TupleSpec {
        name: "crafted".into(),
        states: 3,
        tuples,
        features,
    };
    Champion {
        genes: vec![0.0; spec.genes()],
        architecture: Architecture::NTuple(spec),
        ..champion()
    }
}

/// Champions with valid checksums that no game can play, each refused by the one loading
/// path with the reason (they used to panic deep in the networks when loaded as teachers).
#[test]
fn crafted_champions_are_refused_by_the_one_loading_path() {
    let dir = temp_dir("crafted-networks");
    let start = Othello::start();
    let discs = GlobalFeature {
        name: "discs".into(),
        size: 65,
    };
    let kalah_spec = evoboard::games::mancala::Kalah::game(6, 4, false)
        .tuple_set("triples")
        .unwrap();
    let mlp = |inputs: usize| {
        let topology = Topology::new(&[inputs, 5, 1]).unwrap();
        Champion {
            genes: vec![0.1; topology.genes()],
            architecture: Architecture::Mlp(topology),
            ..champion()
        }
    };
    let unusable = |weight: f32| {
        let mut champion = champion();
        champion.genes[17] = weight;
        champion
    };
    let cases: Vec<(&str, Champion, &str)> = vec![
        (
            "cell 200",
            tuple_champion(vec![vec![0, 200]], vec![]),
            "cell 200",
        ),
        (
            "empty tuple",
            tuple_champion(vec![vec![]], vec![]),
            "0 cells",
        ),
        (
            "2000 tuples",
            tuple_champion(vec![vec![0, 1]; 2000], vec![]),
            "placements",
        ),
        (
            "9 features",
            tuple_champion(vec![vec![0]], vec![discs; 9]),
            "9 global features",
        ),
        ("mlp of 10 inputs", mlp(10), "10 inputs"),
        (
            "kalah tuples",
            Champion {
                genes: vec![0.0; kalah_spec.genes()],
                architecture: Architecture::NTuple(kalah_spec),
                ..champion()
            },
            "states",
        ),
        ("NaN weight", unusable(f32::NAN), "weight 17"),
        ("infinite weight", unusable(f32::NEG_INFINITY), "weight 17"),
        ("huge weight", unusable(1e31), "weight 17"),
        (
            "depth 0",
            Champion {
                depth: 0,
                ..champion()
            },
            "depth 0",
        ),
        (
            "depth 2^32 - 1",
            Champion {
                depth: u32::MAX,
                ..champion()
            },
            "depth 4294967295",
        ),
    ];
    for (case, crafted, reason) in cases {
        if !case.contains("weight") && !case.contains("depth") {
            assert!(
                start.check_architecture(&crafted.architecture).is_err(),
                "{case}: the architecture check refuses it"
            );
        }
        let path = dir.join("crafted.evo");
        crafted.save(&path, "othello").unwrap();
        match Champion::load_for(&path, &start) {
            Err(error @ PersistError::Unplayable { .. }) => {
                let message = error.to_string();
                assert!(message.contains(reason), "{case}: {message}");
                assert!(error.is_bad_input());
            }
            other => panic!("{case}: {other:?}"),
        }
    }
    // A Kalah network in a Kalah file is refused for Othello by its header.
    let path = dir.join("kalah.evo");
    mlp(14).save(&path, "kalah").unwrap();
    assert!(matches!(
        Champion::load_for(&path, &start),
        Err(PersistError::WrongGame { .. })
    ));
    std::fs::remove_dir_all(dir).unwrap();
}
