//! What the processes of a job exchange besides results: a check that they agree, a
//! decision any of them may take, and the leader's value sent to the others.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::persist::{decode_message, encode_message};

use super::installed;

/// True if every process holds the same `value` (always, alone): a guard that the
/// processes, each computing the next step on its own, still agree. Costs one exchange of
/// a 4-byte checksum.
pub fn all_agree<T: Serialize>(value: &T) -> bool {
    let Some(processes) = installed().filter(|processes| processes.may_communicate()) else {
        return true;
    };
    let checksum = crc32fast::hash(&encode_message(value)).to_le_bytes();
    let all = processes.all_gather(checksum.to_vec());
    all.iter().all(|theirs| theirs[..] == checksum[..])
}

/// True if `mine` is true on any process (on a process alone, `mine`): a decision every
/// process takes alike, such as to stop when one of them was asked to. Costs one exchange
/// of a byte.
pub fn any_process(mine: bool) -> bool {
    let Some(processes) = installed().filter(|processes| processes.may_communicate()) else {
        return mine;
    };
    let all = processes.all_gather(vec![u8::from(mine)]);
    all.iter().any(|theirs| theirs.first() == Some(&1))
}

/// Sends the leader's `value` to every other process, which takes it with [`receive`]
/// (nothing to do on a process alone).
pub fn publish<T: Serialize>(value: &T) {
    if let Some(processes) = installed() {
        processes.broadcast(encode_message(value));
    }
}

/// The value the leader [`publish`]es, on a process other than the leader.
///
/// # Panics
/// On a process alone, which has no leader to listen to.
pub fn receive<T: DeserializeOwned>() -> T {
    let processes = installed().expect("only a process of an MPI job receives");
    decode_message(&processes.broadcast(Vec::new()))
        .expect("every process runs the same build and encodes alike")
}
