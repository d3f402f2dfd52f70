//! Tests of the jobs' shares and of their order on a process alone.

use super::*;

#[test]
fn the_shares_cover_every_job_once() {
    for size in 1..5 {
        let mut seen: Vec<usize> = (0..size).flat_map(|rank| share(11, rank, size)).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..11).collect::<Vec<_>>(), "{size} processes");
    }
    assert_eq!(share(7, 1, 3).collect::<Vec<_>>(), vec![1, 4]);
}

#[test]
fn a_process_alone_keeps_the_job_order() {
    assert_eq!(
        map_jobs(100, |k| k * k),
        (0..100).map(|k| k * k).collect::<Vec<_>>()
    );
    for at_once in [1, 3, 200] {
        assert_eq!(
            map_whole_jobs(100, at_once, |k| map_jobs(k, |j| j).len()),
            (0..100).collect::<Vec<_>>(),
            "{at_once} at once"
        );
    }
    assert!(is_leader());
    assert_eq!(process_count(), 1);
}
