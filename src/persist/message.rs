//! Messages between the processes of one run (MPI): bare payloads, without the container's
//! header and checksum, as every process runs the same build.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::DECODE_LIMIT;

/// Encodes `value` as a message between the processes of one run (MPI): the bare payload,
/// as every process runs the same build.
pub fn encode_message<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("in-memory serialisation of plain data cannot fail")
}

/// Decodes a message written by [`encode_message`]; `None` if the bytes are not one.
pub fn decode_message<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let config = bincode::config::standard().with_limit::<DECODE_LIMIT>();
    match bincode::serde::decode_from_slice(bytes, config) {
        Ok((value, used)) if used == bytes.len() => Some(value),
        _ => None,
    }
}
