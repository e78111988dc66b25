//! The cubic Hermite curve: the smoothing that uses both states' velocities.

use glam::DVec3;

/// The cubic Hermite basis at `t`: the weights of `p0`, `p1`, `h·v0` and `h·v1`
/// (`2t³-3t²+1`, `3t²-2t³`, `t³-2t²+t`, `t³-t²`), as bevy_transform_interpolation's
/// `hermite.rs` writes them.
pub fn hermite_basis(t: f64) -> [f64; 4] {
    let (t2, t3) = (t * t, t * t * t);
    [
        2.0 * t3 - 3.0 * t2 + 1.0,
        3.0 * t2 - 2.0 * t3,
        t3 - 2.0 * t2 + t,
        t3 - t2,
    ]
}

/// The point at `t` on the cubic from `p0` (velocity `v0`) to `p1` (velocity `v1`), `h`
/// seconds apart. Exact for any motion of at most cubic order, uniform motion included.
pub fn hermite(p0: DVec3, v0: DVec3, p1: DVec3, v1: DVec3, h: f64, t: f64) -> DVec3 {
    let [b0, b1, b2, b3] = hermite_basis(t);
    p0 * b0 + p1 * b1 + v0 * (h * b2) + v1 * (h * b3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermite_reproduces_uniform_motion_exactly() {
        // x(t) = p + v·t, sampled h = 1/64 s apart: every point on the curve is on the line.
        // The values are binary fractions, so "exact" is bit for bit.
        let (p, v, h) = (
            DVec3::new(1.0, -2.0, 0.5),
            DVec3::new(0.25, 4.0, -8.0),
            0.015625,
        );
        for t in [0.0, 0.125, 0.25, 0.5, 0.75, 1.0] {
            let point = hermite(p, v, p + v * h, v, h, t);
            assert_eq!(point, p + v * (h * t), "t = {t}");
        }
    }

    #[test]
    fn hermite_matches_its_end_points_and_a_cubic() {
        // x(s) = s³ on [0, 1]: the endpoints and their slopes pin the cubic down.
        let cubic = |s: f64| DVec3::splat(s * s * s);
        let slope = |s: f64| DVec3::splat(3.0 * s * s);
        for t in [0.0, 0.3, 0.7, 1.0] {
            let point = hermite(cubic(0.0), slope(0.0), cubic(1.0), slope(1.0), 1.0, t);
            assert!((point - cubic(t)).length() < 1e-15, "t = {t}");
        }
    }
}
