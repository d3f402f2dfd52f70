//! The few distribution functions the summaries need: Student's t (its CDF through the
//! regularised incomplete beta function, and its quantiles) and the standard normal.

/// ln Γ(x) for x > 0, by the Lanczos approximation (g = 7, nine coefficients: about 15
/// significant digits), with the reflection formula below ½.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (k, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + k as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularised incomplete beta function I_x(a, b), from its continued fraction
/// (evaluated by the modified Lentz method on whichever side converges fast).
pub fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let log_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        log_front.exp() * beta_fraction(x, a, b) / a
    } else {
        1.0 - log_front.exp() * beta_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction of I_x(a, b), to relative precision 1e-15.
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let clamp = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / clamp(1.0 - (a + b) * x / (a + 1.0));
    let mut fraction = d;
    for m in 1..500 {
        let m = f64::from(m);
        // The even step, then the odd one.
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / clamp(1.0 + even * d);
        c = clamp(1.0 + even / c);
        fraction *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / clamp(1.0 + odd * d);
        c = clamp(1.0 + odd / c);
        let step = d * c;
        fraction *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    fraction
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom.
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The `p` quantile of Student's t with `df` degrees of freedom (by bisection on the CDF:
/// exact to 1e-12, and only a handful are needed per summary).
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    bisect(|t| student_t_cdf(t, df), p)
}

/// P(Z ≤ z) for the standard normal.
pub fn normal_cdf(z: f64) -> f64 {
    // Φ(z) = ½ erfc(−z/√2).
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The `p` quantile of the standard normal.
pub fn normal_quantile(p: f64) -> f64 {
    bisect(normal_cdf, p)
}

/// The complementary error function, to about 1e-14: a series for small |x|, a
/// continued fraction (Lentz) in the tail.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        // erf(x) = 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        for n in 1..200 {
            let n = f64::from(n);
            term *= -x * x / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return 1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum;
    }
    // erfc(x) = exp(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
    let mut fraction = x;
    for k in (1..120).rev() {
        fraction = x + f64::from(k) / 2.0 / fraction;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / fraction
}

/// The x with `cdf(x) = p`, for a continuous increasing `cdf`.
fn bisect(cdf: impl Fn(f64) -> f64, p: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "a probability strictly between 0 and 1");
    let (mut low, mut high) = (-1.0, 1.0);
    while cdf(low) > p {
        low *= 2.0;
    }
    while cdf(high) < p {
        high *= 2.0;
    }
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if cdf(middle) < p {
            low = middle;
        } else {
            high = middle;
        }
        if high - low < 1e-13 * (1.0 + middle.abs()) {
            break;
        }
    }
    0.5 * (low + high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_matches_factorials_and_half_integers() {
        for (n, factorial) in [(1.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0_f64)] {
            assert!((ln_gamma(n) - f64::ln(factorial)).abs() < 1e-12);
        }
        let root_pi = std::f64::consts::PI.sqrt();
        assert!((ln_gamma(0.5) - root_pi.ln()).abs() < 1e-12);
        assert!((ln_gamma(1.5) - (root_pi / 2.0).ln()).abs() < 1e-12);
    }

    #[test]
    fn t_quantiles_match_published_tables() {
        // Two-sided 95% critical values (any statistics table).
        for (df, critical) in [
            (1.0, 12.706),
            (2.0, 4.303),
            (4.0, 2.776),
            (9.0, 2.262),
            (30.0, 2.042),
        ] {
            let t = student_t_quantile(0.975, df);
            assert!((t - critical).abs() < 5e-4, "df {df}: {t}");
        }
        // One degree of freedom is the Cauchy distribution: P(T ≤ 1) = 3/4.
        assert!((student_t_cdf(1.0, 1.0) - 0.75).abs() < 1e-12);
        assert!((student_t_cdf(0.0, 7.0) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn normal_values_match_published_tables() {
        assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-9);
        assert!((normal_cdf(1.0) - 0.841_344_746_068_542_9).abs() < 1e-12);
        assert!((normal_cdf(-3.0) - 0.001_349_898_031_630_094_6).abs() < 1e-14);
        assert!((normal_cdf(4.0) - 0.999_968_328_758_166_9).abs() < 1e-14);
    }
}
