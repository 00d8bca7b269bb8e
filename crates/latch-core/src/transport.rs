//! Ranking of redundant RPC transports (behaviour 6.16 "latency/stability ranking
//! optional (weights 0.3 and 0.7, 10 samples, 4 s polling)").

use crate::constants::CONSTANTS;

/// Weight of the latency score in a transport's rank.
pub const LATENCY_WEIGHT: f64 = CONSTANTS.rpc.ranking_latency_weight;
/// Weight of the stability (success rate) score.
pub const STABILITY_WEIGHT: f64 = CONSTANTS.rpc.ranking_stability_weight;
/// Samples kept per transport.
pub const RANK_SAMPLES: usize = CONSTANTS.rpc.ranking_sample_count as usize;
/// Interval between probes, in milliseconds.
pub const RANK_INTERVAL_MS: u64 = CONSTANTS.rpc.ranking_interval_ms;

/// One probe of a transport: how long it took, and whether it answered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Round-trip time in milliseconds.
    pub latency_ms: f64,
    /// Whether the probe got a valid answer.
    pub ok: bool,
}

/// Scores each transport's recent samples and returns the transports'
/// indices, best first. Latency score: `1 - mean / slowest mean` over
/// successful probes; stability: successes / samples; rank by
/// `0.3 × latency + 0.7 × stability`. Transports without samples keep their
/// configured order after the measured ones' ties; ties keep configured order.
pub fn rank_transports(samples: &[Vec<Sample>]) -> Vec<usize> {
    let mean_latency: Vec<Option<f64>> = samples
        .iter()
        .map(|s| {
            let ok: Vec<f64> = s.iter().filter(|x| x.ok).map(|x| x.latency_ms.max(0.0)).collect();
            (!ok.is_empty()).then(|| ok.iter().sum::<f64>() / ok.len() as f64)
        })
        .collect();
    let slowest = mean_latency.iter().flatten().copied().fold(0.0_f64, f64::max);
    let score = |i: usize| -> f64 {
        let s = &samples[i];
        if s.is_empty() {
            // Unmeasured: as good as a perfectly stable transport of average speed.
            return LATENCY_WEIGHT * 0.5 + STABILITY_WEIGHT;
        }
        let stability = s.iter().filter(|x| x.ok).count() as f64 / s.len() as f64;
        let latency = match mean_latency[i] {
            Some(mean) if slowest > 0.0 => 1.0 - mean / slowest,
            Some(_) => 1.0,
            None => 0.0,
        };
        LATENCY_WEIGHT * latency + STABILITY_WEIGHT * stability
    };
    let scores: Vec<f64> = (0..samples.len()).map(score).collect();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    // Stable sort: equal scores keep the configured order.
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn probes(latency_ms: f64, ok: usize, failed: usize) -> Vec<Sample> {
        let mut s = vec![Sample { latency_ms, ok: true }; ok];
        s.extend(vec![Sample { latency_ms, ok: false }; failed]);
        s
    }

    // Behaviour 6.16: "weights 0.3 and 0.7": stability outweighs speed.
    #[test]
    fn stability_outweighs_latency() {
        let fast_flaky = probes(10.0, 5, 5);
        let slow_stable = probes(100.0, 10, 0);
        assert_eq!(rank_transports(&[fast_flaky, slow_stable]), vec![1, 0]);
    }

    #[test]
    fn faster_wins_among_equally_stable() {
        assert_eq!(rank_transports(&[probes(80.0, 10, 0), probes(20.0, 10, 0)]), vec![1, 0]);
    }

    #[test]
    fn dead_transports_sink_and_ties_keep_order() {
        assert_eq!(
            rank_transports(&[probes(5.0, 0, 10), probes(50.0, 10, 0), probes(50.0, 10, 0)]),
            vec![1, 2, 0]
        );
        assert_eq!(rank_transports(&[vec![], vec![]]), vec![0, 1]);
        assert_eq!(rank_transports(&[]), Vec::<usize>::new());
    }

    proptest! {
        #[test]
        fn ranks_are_a_permutation(s in proptest::collection::vec(
            proptest::collection::vec((0.0f64..10_000.0, any::<bool>()), 0..RANK_SAMPLES), 0..6)) {
            let samples: Vec<Vec<Sample>> =
                s.iter().map(|t| t.iter().map(|&(latency_ms, ok)| Sample { latency_ms, ok }).collect()).collect();
            let mut order = rank_transports(&samples);
            order.sort_unstable();
            prop_assert_eq!(order, (0..samples.len()).collect::<Vec<_>>());
        }
    }
}
