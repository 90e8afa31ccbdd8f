//! Shared test support: a seeded generator, exact f64 oracles, conversions, and the macro
//! that runs a case for every scalar (f32, f64, FixedI40F24) and dimension.
#![allow(dead_code)]

use convex_proximity::{Dim, Distance, Real, Tolerances, lit, shape::SupportMap};
use nalgebra::{Const, Isometry, Point, SVector};

#[cfg(feature = "fixed")]
pub type Fx = simba::scalar::FixedI40F24;

/// Runs `$body::<T, D>()` for f32, f64 and (with `fixed`) FixedI40F24, per listed `D`.
#[macro_export]
macro_rules! cases {
    ($body:ident, [$($d:literal => $m:ident),+ $(,)?]) => {
        mod $body {
            $(
                mod $m {
                    #[test]
                    fn f32() { super::super::$body::<f32, $d>() }
                    #[test]
                    fn f64() { super::super::$body::<f64, $d>() }
                    #[cfg(feature = "fixed")]
                    #[test]
                    fn fixed() { super::super::$body::<$crate::common::Fx, $d>() }
                }
            )+
        }
    };
}

pub fn f<T: Real>(x: T) -> f64 {
    nalgebra::try_convert(x).expect("finite scalar")
}

pub fn v<T: Real, const D: usize>(x: &SVector<f64, D>) -> SVector<T, D> {
    x.map(lit::<T>)
}

pub fn p<T: Real, const D: usize>(x: &Point<f64, D>) -> Point<T, D> {
    Point::from(v::<T, D>(&x.coords))
}

pub fn back<T: Real, const D: usize>(x: &SVector<T, D>) -> SVector<f64, D> {
    x.map(f::<T>)
}

pub fn pback<T: Real, const D: usize>(x: &Point<T, D>) -> Point<f64, D> {
    Point::from(back(&x.coords))
}

/// Whether the scalar is fixed-point (absolute resolution).
pub fn is_fixed<T: Real>() -> bool {
    let e = T::default_epsilon();
    e * e == T::zero()
}

/// The accuracy the issue asks for, as (absolute, relative-to-scale):
/// f64 1e-9 × scale, f32 1e-4 × scale, FixedI40F24 1e-4 absolute (unit-scale shapes).
pub fn accuracy<T: Real>(scale: f64) -> f64 {
    if is_fixed::<T>() {
        1e-4
    } else if f(T::default_epsilon()) < 1e-12 {
        1e-9 * scale
    } else {
        1e-4 * scale
    }
}

/// Runs `$body::<T>()` for f32, f64 and (with `fixed`) FixedI40F24, per listed case.
#[macro_export]
macro_rules! scalar_cases {
    ($($body:ident),* $(,)?) => {$(
        mod $body {
            #[test]
            fn f32() { super::$body::<f32>() }
            #[test]
            fn f64() { super::$body::<f64>() }
            #[cfg(feature = "fixed")]
            #[test]
            fn fixed() { super::$body::<$crate::common::Fx>() }
        }
    )*};
}

pub mod splitmix;

/// splitmix64: a tiny seeded generator.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        splitmix::next_u64(&mut self.0)
    }
    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        splitmix::uniform(&mut self.0, lo, hi)
    }
    pub fn vector<const D: usize>(&mut self, lo: f64, hi: f64) -> SVector<f64, D> {
        SVector::from_fn(|_, _| self.uniform(lo, hi))
    }
    /// A uniformly random unit vector.
    pub fn unit<const D: usize>(&mut self) -> SVector<f64, D> {
        loop {
            let x: SVector<f64, D> = self.vector(-1.0, 1.0);
            let n = x.norm();
            if n > 0.1 && n <= 1.0 {
                return x / n;
            }
        }
    }
    /// `n` points on the sphere of radius `r` around `c`.
    pub fn sphere_points<const D: usize>(
        &mut self,
        n: usize,
        c: SVector<f64, D>,
        r: f64,
    ) -> Vec<Point<f64, D>> {
        (0..n)
            .map(|_| Point::from(c + self.unit::<D>() * r))
            .collect()
    }
}

/// A random rotation matrix (Gram–Schmidt on random vectors, det forced to +1), any D.
pub fn rotation<const D: usize>(rng: &mut Rng) -> nalgebra::SMatrix<f64, D, D> {
    let mut m = nalgebra::SMatrix::<f64, D, D>::zeros();
    for j in 0..D {
        let mut c: SVector<f64, D> = rng.unit();
        // Two passes ("twice is enough"): one leaves an orthogonality error of ε over
        // the residual's length, which for a draw nearly in the span of the earlier
        // columns exceeded the pose check's 1.2e-10 (a 4D quickcheck case).
        for _ in 0..2 {
            for k in 0..j {
                let prev = m.column(k).into_owned();
                c -= prev * prev.dot(&c);
            }
        }
        m.set_column(j, &c.normalize());
    }
    // A proper rotation: a reflection (det −1, half of the Gram–Schmidt draws) is no pose.
    if nalgebra::DMatrix::from_column_slice(D, D, m.as_slice()).determinant() < 0.0 {
        m.column_mut(0).neg_mut();
    }
    m
}

// ---------------------------------------------------------------- exact f64 oracles

/// Closest points of segments [p1,q1], [p2,q2] (Ericson, Real-Time Collision Detection
/// §5.1.9), any D. Returns the distance.
pub fn segment_segment<const D: usize>(
    p1: &SVector<f64, D>,
    q1: &SVector<f64, D>,
    p2: &SVector<f64, D>,
    q2: &SVector<f64, D>,
) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, ff) = (d1.dot(&d1), d2.dot(&d2), d2.dot(&r));
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return r.norm();
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (ff / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * ff - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + ff) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

/// Distance from the origin to the segment [a, b].
pub fn origin_segment<const D: usize>(a: &SVector<f64, D>, b: &SVector<f64, D>) -> f64 {
    segment_point(a, b).norm()
}

/// The point of the segment [a, b] nearest the origin.
fn segment_point<const D: usize>(a: &SVector<f64, D>, b: &SVector<f64, D>) -> SVector<f64, D> {
    let ab = b - a;
    let l = ab.dot(&ab);
    let t = if l > 0.0 {
        (-a.dot(&ab) / l).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// Distance from the origin to the triangle abc.
pub fn origin_triangle(a: &SVector<f64, 3>, b: &SVector<f64, 3>, c: &SVector<f64, 3>) -> f64 {
    triangle_point(a, b, c).norm()
}

/// The point of the triangle abc nearest the origin (Ericson §5.1.5, Voronoi regions).
fn triangle_point(
    a: &SVector<f64, 3>,
    b: &SVector<f64, 3>,
    c: &SVector<f64, 3>,
) -> SVector<f64, 3> {
    let pnt = SVector::<f64, 3>::zeros();
    let (ab, ac, ap) = (b - a, c - a, pnt - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = pnt - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = pnt - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// Distance between conv(P) and conv(Q) by brute force over pairs of features of the
/// point sets: the closest pair of two separated polytopes is realised by a vertex and a
/// triangle (either way round), two edges (a parallelogram of P − Q, two triangles), or in
/// D = 2 a vertex and an edge. That minimum is the distance when the hulls are apart,
/// which [`separated`] decides; otherwise the answer is 0. Cost O(n³) in the points of
/// each set, where a facet search over the n² points of P − Q costs O(n⁸).
pub fn polytope_distance<const D: usize>(pa: &[Point<f64, D>], pb: &[Point<f64, D>]) -> f64 {
    assert!(D == 2 || D == 3, "brute force oracle: D = 2 or 3");
    let (a, b): (Vec<SVector<f64, D>>, Vec<SVector<f64, D>>) = (
        pa.iter().map(|x| x.coords).collect(),
        pb.iter().map(|x| x.coords).collect(),
    );
    let mut best = a[0] - b[0];
    let mut offer = |q: SVector<f64, D>| {
        if q.norm_squared() < best.norm_squared() {
            best = q;
        }
    };
    let to3 = |x: SVector<f64, D>| SVector::<f64, 3>::new(x[0], x[1], x[2]);
    let from3 = |x: SVector<f64, 3>| SVector::<f64, D>::from_fn(|i, _| x[i]);
    // Vertex–vertex and vertex–edge, both ways round (D = 2: all there is).
    for (p, q, flip) in [(&a, &b, 1.0), (&b, &a, -1.0)] {
        for x in p {
            for (j, y0) in q.iter().enumerate() {
                offer((x - y0) * flip);
                for (k, y1) in q.iter().enumerate().skip(j + 1) {
                    offer(segment_point(&(x - y0), &(x - y1)) * flip);
                    if D == 3 {
                        for y2 in &q[k + 1..] {
                            let t = triangle_point(&to3(x - y0), &to3(x - y1), &to3(x - y2));
                            offer(from3(t) * flip);
                        }
                    }
                }
            }
        }
    }
    if D == 3 {
        for (i, a0) in a.iter().enumerate() {
            for a1 in &a[i + 1..] {
                for (j, b0) in b.iter().enumerate() {
                    for b1 in &b[j + 1..] {
                        let (p00, p10, p11, p01) = (a0 - b0, a1 - b0, a1 - b1, a0 - b1);
                        offer(from3(triangle_point(&to3(p00), &to3(p10), &to3(p11))));
                        offer(from3(triangle_point(&to3(p00), &to3(p01), &to3(p11))));
                    }
                }
            }
        }
    }
    let scale = a
        .iter()
        .chain(&b)
        .map(|x| x.norm())
        .fold(0.0, f64::max)
        .max(1.0);
    if separated(&a, &b, scale) {
        best.norm()
    } else {
        0.0
    }
}

/// Whether a separating axis exists among the candidates of the separating-axis theorem
/// for polytopes, taken over all point pairs and triples (a superset of the hulls' face
/// normals and edge-edge cross products): D = 2 the normals of every segment of P and of
/// Q, D = 3 the normals of every triangle of P and of Q and the cross products of every
/// segment of P with every segment of Q. A gap of more than the dot products' rounding
/// proves the hulls apart.
fn separated<const D: usize>(a: &[SVector<f64, D>], b: &[SVector<f64, D>], scale: f64) -> bool {
    let gap = |n: &SVector<f64, D>| {
        let range = |s: &[SVector<f64, D>]| {
            s.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    let t = x.dot(n);
                    (lo.min(t), hi.max(t))
                })
        };
        let ((la, ha), (lb, hb)) = (range(a), range(b));
        (la - hb).max(lb - ha) > 1e-12 * scale * n.norm()
    };
    let from3 = |x: SVector<f64, 3>| SVector::<f64, D>::from_fn(|i, _| x[i]);
    let mut edges = [Vec::new(), Vec::new()];
    for (s, set) in [a, b].into_iter().enumerate() {
        for (i, x) in set.iter().enumerate() {
            for (j, y) in set.iter().enumerate().skip(i + 1) {
                let e = y - x;
                if D == 2 {
                    if gap(&SVector::<f64, D>::from_fn(|k, _| {
                        if k == 0 { -e[1] } else { e[0] }
                    })) {
                        return true;
                    }
                    continue;
                }
                edges[s].push(sv3(&e));
                for z in &set[j + 1..] {
                    if gap(&from3(sv3(&e).cross(&sv3(&(z - x))))) {
                        return true;
                    }
                }
            }
        }
    }
    edges[0]
        .iter()
        .any(|ea| edges[1].iter().any(|eb| gap(&from3(ea.cross(eb)))))
}

fn sv3<const D: usize>(x: &SVector<f64, D>) -> SVector<f64, 3> {
    SVector::<f64, 3>::new(x[0], x[1], x[2])
}

// ---------------------------------------------------------------- result checks

/// The support value `h_S(d) = max_{x∈S} d·x` of a posed shape, in f64 (d need not be unit).
pub fn support_value<T, R, S, const D: usize>(
    pose: &Isometry<T, R, D>,
    s: &S,
    d: &SVector<f64, D>,
) -> f64
where
    T: Real,
    R: nalgebra::AbstractRotation<T, D>,
    S: SupportMap<T, D> + ?Sized,
{
    let local = pose.inverse_transform_vector(&v::<T, D>(d));
    let x = pose.transform_point(&s.support(&local));
    d.dot(&pback(&x).coords)
}

/// Checks the invariants every distance answer must satisfy, against the exact distance
/// `exact` with the accepted error `acc`: bounds bracket the truth, the witnesses are
/// `distance` apart, lie on their shapes' boundaries along the normal (support values),
/// and nothing is NaN.
#[allow(clippy::too_many_arguments)]
pub fn check_distance<T, R, A, B, const D: usize>(
    what: &str,
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    d: &Distance<T, D>,
    exact: f64,
    acc: f64,
) where
    T: Real,
    R: nalgebra::AbstractRotation<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let got = f(d.distance);
    let (lo, hi) = (f(d.lower_bound), f(d.upper_bound));
    let ctx = format!(
        "{what}: got {got} exact {exact} acc {acc} bounds [{lo}, {hi}] {:?} after {}",
        d.termination, d.iterations
    );
    assert!((got - exact).abs() <= acc, "distance off: {ctx}");
    assert!(
        lo <= exact + acc && exact <= hi + acc,
        "bounds do not bracket: {ctx}"
    );
    assert!(
        lo <= got + acc && got <= hi + acc,
        "distance outside its bounds: {ctx}"
    );
    let (qa, qb) = (pback(&d.point_a), pback(&d.point_b));
    assert!(
        ((qb - qa).norm() - got).abs() <= 2.0 * acc,
        "witnesses {qa} {qb} not `distance` apart: {ctx}"
    );
    // Each witness lies in its shape: d·q ≤ h(d) along the normal, the axes and a few
    // fixed directions (necessary for membership; with the two checks above it pins the
    // pair down as closest points).
    let mut dirs: Vec<SVector<f64, D>> = Vec::new();
    for k in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[k] = 1.0;
        dirs.push(e);
        dirs.push(-e);
    }
    let mut rng = Rng(99);
    for _ in 0..8 {
        dirs.push(rng.unit());
    }
    if let Some(n) = d.normal {
        let n = back(&n.into_inner());
        assert!((n.norm() - 1.0).abs() < 1e-3, "normal not unit: {ctx}");
        if got > 10.0 * acc {
            let along = (qb - qa) / (qb - qa).norm();
            assert!(
                (along - n).norm() < 1e-2,
                "normal {n} not along b - a {along}: {ctx}"
            );
        }
        dirs.push(n);
        dirs.push(-n);
    } else {
        assert!(got == 0.0, "no normal but distance {got}: {ctx}");
    }
    for dir in &dirs {
        let (ha, hb) = (support_value(pose_a, a, dir), support_value(pose_b, b, dir));
        assert!(
            dir.dot(&qa.coords) <= ha + 2.0 * acc,
            "point_a outside A along {dir}: {ctx}"
        );
        assert!(
            dir.dot(&qb.coords) <= hb + 2.0 * acc,
            "point_b outside B along {dir}: {ctx}"
        );
    }
}

/// Tolerances for tests: the defaults.
pub fn tol<T: Real>() -> Tolerances<T> {
    Tolerances::default()
}

pub fn dim_ok<const D: usize>()
where
    Const<D>: Dim,
{
}

/// The hull of `n` random points on a sphere of radius `r` about the origin, in `T`.
pub fn sphere_hull<T: Real, const D: usize>(
    rng: &mut Rng,
    n: usize,
    r: f64,
) -> convex_proximity::shape::Polytope<T, D> {
    let pts: Vec<Point<T, D>> = rng
        .sphere_points::<D>(n, SVector::zeros(), r)
        .iter()
        .map(p::<T, D>)
        .collect();
    convex_proximity::shape::Polytope::try_new(pts).unwrap()
}

/// A pose in `T` and the same pose read back in f64 (so oracles see the rounded input).
pub type Pose<T, const D: usize> = Isometry<T, nalgebra::Rotation<T, D>, D>;

pub fn random_pose<T: Real, const D: usize>(
    rng: &mut Rng,
    spread: f64,
) -> (Pose<T, D>, Pose<f64, D>) {
    let m = rotation::<D>(rng);
    let t: SVector<f64, D> = rng.vector(-spread, spread);
    let mt = m.map(lit::<T>);
    let tt = v::<T, D>(&t);
    let pose_t = Isometry::from_parts(
        nalgebra::Translation::from(tt),
        nalgebra::Rotation::from_matrix_unchecked(mt),
    );
    let pose_f = Isometry::from_parts(
        nalgebra::Translation::from(back(&tt)),
        nalgebra::Rotation::from_matrix_unchecked(mt.map(f::<T>)),
    );
    (pose_t, pose_f)
}

pub fn translation<T: Real, const D: usize>(t: &SVector<f64, D>) -> (Pose<T, D>, Pose<f64, D>) {
    let tt = v::<T, D>(t);
    (
        Isometry::from_parts(
            nalgebra::Translation::from(tt),
            nalgebra::Rotation::identity(),
        ),
        Isometry::from_parts(
            nalgebra::Translation::from(back(&tt)),
            nalgebra::Rotation::identity(),
        ),
    )
}

/// Rounds `x` through `T` and back.
pub fn round<T: Real>(x: f64) -> f64 {
    f(lit::<T>(x))
}

// ---------------------------------------------------------------- penetration oracles

/// The exact penetration depth of two polytopes by the separating-axis theorem: `depth` is
/// the minimum over the candidate axes `n` (unit, from A to B) of the overlap
/// `h_A(n) + h_B(−n)`, `axis` the minimiser, and `unique` whether every candidate more than
/// 1e-6 rad from `axis` overlaps by at least `depth + 1e-3 · scale` (a normal worth checking).
/// A negative `depth` means a separating axis was found.
#[derive(Clone, Copy, Debug)]
pub struct Sat<const D: usize> {
    pub depth: f64,
    pub axis: SVector<f64, D>,
    pub second: f64,
    pub unique: bool,
}

/// `h_P(n) = max_{x ∈ P} n·x` over a vertex list.
pub fn vertex_support<const D: usize>(pts: &[Point<f64, D>], n: &SVector<f64, D>) -> f64 {
    pts.iter()
        .map(|x| n.dot(&x.coords))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The extent of a point set (its largest coordinate magnitude about its centroid, ≥ 1e-300).
fn extent<const D: usize>(pts: &[Point<f64, D>]) -> f64 {
    let c = pts
        .iter()
        .fold(SVector::<f64, D>::zeros(), |s, x| s + x.coords)
        / pts.len() as f64;
    pts.iter()
        .map(|x| (x.coords - c).norm())
        .fold(1e-300, f64::max)
}

/// Outward unit normals of the supporting facets of conv(pts) by brute force (2D: pairs,
/// 3D: triples with every point on one side). A flat set gets both sides of its plane.
pub fn facet_normals<const D: usize>(pts: &[Point<f64, D>]) -> Vec<SVector<f64, D>> {
    assert!(D == 2 || D == 3, "facet_normals: D = 2 or 3");
    let tiny = 1e-9 * extent(pts);
    let mut out: Vec<SVector<f64, D>> = Vec::new();
    let mut push = |n: SVector<f64, D>, base: &Point<f64, D>| {
        let side: Vec<f64> = pts.iter().map(|x| n.dot(&(x - base))).collect();
        for s in [1.0, -1.0] {
            if side.iter().all(|&v| s * v <= tiny)
                && !out.iter().any(|m| (m - n * s).norm() < 1e-12)
            {
                out.push(n * s);
            }
        }
    };
    let n = pts.len();
    for i in 0..n {
        for j in i + 1..n {
            if D == 2 {
                let e = pts[j] - pts[i];
                let mut nr = SVector::<f64, D>::zeros();
                nr[0] = -e[1];
                nr[1] = e[0];
                if nr.norm() > tiny {
                    push(nr.normalize(), &pts[i]);
                }
            } else {
                for k in j + 1..n {
                    let (a, b, c) = (
                        sv3(&pts[i].coords),
                        sv3(&pts[j].coords),
                        sv3(&pts[k].coords),
                    );
                    let c3 = (b - a).cross(&(c - a));
                    if c3.norm() > 1e-12 * (b - a).norm() * (c - a).norm() {
                        let nr = SVector::<f64, D>::from_fn(|r, _| c3[r]).normalize();
                        push(nr, &pts[i]);
                    }
                }
            }
        }
    }
    out
}

/// 3D: unit directions of the edges of conv(pts): pairs lying on two distinct facet planes,
/// or every pair for a flat (or lower-dimensional) set. Duplicates removed.
///
/// "Flat" includes clouds thinner than `1e-3` of their extent along some facet normal: a
/// segment's points rounded to f32 are a sliver whose facet planes hold its pairs only to
/// rounding, and the sliver's true edges were missed (fuzz seed 50860804 of
/// `query_3d_f32`: a SAT depth of 0.1446 where the shapes overlap by 0.1215 along the
/// contact's normal). Every pair is a superset of the edges, and every axis bounds the
/// depth from above, so the extra axes cannot make the oracle wrong, only slower.
pub fn edge_directions<const D: usize>(pts: &[Point<f64, D>]) -> Vec<SVector<f64, D>> {
    let tiny = 1e-9 * extent(pts);
    let normals = facet_normals(pts);
    let thin = normals
        .iter()
        .any(|n| vertex_support(pts, n) + vertex_support(pts, &-n) <= 1e-3 * extent(pts));
    let flat = normals.len() <= 2 || thin;
    let mut out: Vec<SVector<f64, D>> = Vec::new();
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            let e = pts[j] - pts[i];
            if e.norm() <= tiny {
                continue;
            }
            let on = |n: &SVector<f64, D>| {
                let h = vertex_support(pts, n);
                (n.dot(&pts[i].coords) - h).abs() <= tiny
                    && (n.dot(&pts[j].coords) - h).abs() <= tiny
            };
            if flat || normals.iter().filter(|n| on(n)).count() >= 2 {
                let e = e.normalize();
                if !out
                    .iter()
                    .any(|m| (m - e).norm() < 1e-12 || (m + e).norm() < 1e-12)
                {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// The SAT candidate axes of two polytopes: A's outward facet normals, minus B's, and (3D)
/// both signs of every normalised edge–edge cross product.
pub fn sat_axes<const D: usize>(
    na: &[SVector<f64, D>],
    nb: &[SVector<f64, D>],
    ea: &[SVector<f64, D>],
    eb: &[SVector<f64, D>],
) -> Vec<SVector<f64, D>> {
    let mut axes: Vec<SVector<f64, D>> = na.iter().copied().chain(nb.iter().map(|n| -n)).collect();
    if D == 3 {
        for a in ea {
            for b in eb {
                let c = sv3(a).cross(&sv3(b));
                if c.norm() > 1e-12 {
                    let c = SVector::<f64, D>::from_fn(|r, _| c[r]).normalize();
                    axes.push(c);
                    axes.push(-c);
                }
            }
        }
    }
    axes
}

/// SAT depth of conv(pa) and conv(pb) over the given axes (see [`Sat`]).
pub fn sat_over<const D: usize>(
    pa: &[Point<f64, D>],
    pb: &[Point<f64, D>],
    axes: &[SVector<f64, D>],
    scale: f64,
) -> Sat<D> {
    // Plain arrays and loops: debug builds run this over ~10⁴ axes × 600 vertices.
    let flat = |ps: &[Point<f64, D>]| -> Vec<[f64; D]> {
        ps.iter().map(|x| core::array::from_fn(|k| x[k])).collect()
    };
    let (fa, fb) = (flat(pa), flat(pb));
    let extreme = |ps: &[[f64; D]], n: &[f64; D]| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for x in ps {
            let mut d = 0.0;
            for k in 0..D {
                d += x[k] * n[k];
            }
            lo = lo.min(d);
            hi = hi.max(d);
        }
        (lo, hi)
    };
    let vals: Vec<f64> = axes
        .iter()
        .map(|n| {
            let n: [f64; D] = core::array::from_fn(|k| n[k]);
            let ((_, ha), (lb, _)) = (extreme(&fa, &n), extreme(&fb, &n));
            ha - lb
        })
        .collect();
    let (mut best, mut depth) = (0, f64::INFINITY);
    for (k, &x) in vals.iter().enumerate() {
        if x < depth {
            (best, depth) = (k, x);
        }
    }
    let axis = axes[best];
    let cos = (1e-6f64).cos();
    let second = vals
        .iter()
        .zip(axes)
        .filter(|(_, n)| n.dot(&axis) < cos)
        .map(|(x, _)| *x)
        .fold(f64::INFINITY, f64::min);
    Sat {
        depth,
        axis,
        second,
        unique: second - depth > 1e-3 * scale,
    }
}

/// Exact SAT penetration depth of two small polytopes given by their vertices (brute-force
/// facets and edges, D = 2 or 3).
pub fn sat_depth<const D: usize>(pa: &[Point<f64, D>], pb: &[Point<f64, D>], scale: f64) -> Sat<D> {
    let (na, nb) = (facet_normals(pa), facet_normals(pb));
    let (ea, eb) = if D == 3 {
        (edge_directions(pa), edge_directions(pb))
    } else {
        (Vec::new(), Vec::new())
    };
    let mut axes = sat_axes(&na, &nb, &ea, &eb);
    // The principal axes of `A − B` (the eigenvectors of its scatter, both ways). Where
    // `A − B` is flat (collinear clouds in 3D: no facet, every edge cross product 0) its
    // depth lies along a normal of its span, and facets and edges give none: the oracle
    // answered 0.52 for two overlapping collinear segments whose depth is 0 (`cargo fuzz`,
    // `query_3d`). More axes never take SAT below the depth: it is the minimum over every
    // direction. Also the coordinate axes: both clouds a single point have no facet and
    // no edge (an empty axis set panicked here).
    for k in 0..D {
        let e = SVector::<f64, D>::from_fn(|r, _| if r == k { 1.0 } else { 0.0 });
        axes.extend([e, -e]);
    }
    axes.extend(difference_axes(pa, pb).into_iter().flat_map(|e| [e, -e]));
    sat_over(pa, pb, &axes, scale)
}

/// The unit eigenvectors of the scatter matrix of the points `a − b` of `A − B` about
/// their mean.
fn difference_axes<const D: usize>(
    pa: &[Point<f64, D>],
    pb: &[Point<f64, D>],
) -> Vec<SVector<f64, D>> {
    let diffs: Vec<SVector<f64, D>> = pa
        .iter()
        .flat_map(|a| pb.iter().map(move |b| a - b))
        .collect();
    if diffs.is_empty() {
        return Vec::new();
    }
    let mean = diffs.iter().fold(SVector::<f64, D>::zeros(), |s, d| s + d) / diffs.len() as f64;
    let scatter = diffs
        .iter()
        .fold(nalgebra::DMatrix::<f64>::zeros(D, D), |m, d| {
            let c = d - mean;
            m + nalgebra::DMatrix::from_fn(D, D, |i, j| c[i] * c[j])
        });
    let eig = nalgebra::SymmetricEigen::new(scatter);
    (0..D)
        .filter_map(|k| {
            let e = SVector::<f64, D>::from_fn(|i, _| eig.eigenvectors[(i, k)]);
            let n = e.norm();
            (n > 0.5).then(|| e / n)
        })
        .collect()
}

/// The triangles of the hull of points in general position on a sphere (3D): candidate
/// triples among each point's `k` nearest neighbours, kept if every point is on one side.
/// Checks Euler's count `2n − 4`, so a missed facet fails loudly.
pub fn sphere_hull_triangles(pts: &[Point<f64, 3>], k: usize) -> Vec<[usize; 3]> {
    let n = pts.len();
    let tiny = 1e-12 * extent(pts);
    let q: Vec<[f64; 3]> = pts.iter().map(|x| [x[0], x[1], x[2]]).collect();
    let sub = |a: &[f64; 3], b: &[f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: &[f64; 3], b: &[f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let mut tris: Vec<[usize; 3]> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for i in 0..n {
        let mut near: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        near.sort_by(|&x, &y| {
            let (dx, dy) = (sub(&q[x], &q[i]), sub(&q[y], &q[i]));
            dot(&dx, &dx).total_cmp(&dot(&dy, &dy))
        });
        near.truncate(k);
        for (u, &j) in near.iter().enumerate() {
            for &l in &near[u + 1..] {
                let mut t = [i, j, l];
                t.sort_unstable();
                if !seen.insert(t) {
                    continue;
                }
                let (e1, e2) = (sub(&q[j], &q[i]), sub(&q[l], &q[i]));
                let nr = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let side = |x: &[f64; 3]| dot(&nr, &sub(x, &q[i]));
                let one_side = |set: &mut dyn Iterator<Item = &[f64; 3]>| {
                    let (mut pos, mut neg) = (false, false);
                    for x in set {
                        let s = side(x);
                        pos |= s > tiny;
                        neg |= s < -tiny;
                        if pos && neg {
                            return false;
                        }
                    }
                    true
                };
                if one_side(&mut near.iter().map(|&m| &q[m])) && one_side(&mut q.iter()) {
                    tris.push(t);
                }
            }
        }
    }
    assert_eq!(tris.len(), 2 * n - 4, "hull oracle missed facets (raise k)");
    tris
}

/// SAT axes data of a triangulated hull: outward unit facet normals and unit edge directions.
pub fn hull_axes(
    pts: &[Point<f64, 3>],
    tris: &[[usize; 3]],
) -> (Vec<SVector<f64, 3>>, Vec<SVector<f64, 3>>) {
    let c = pts
        .iter()
        .fold(SVector::<f64, 3>::zeros(), |s, x| s + x.coords)
        / pts.len() as f64;
    let mut normals = Vec::new();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for t in tris {
        let (a, b, d) = (pts[t[0]], pts[t[1]], pts[t[2]]);
        let mut n = (b - a).cross(&(d - a)).normalize();
        if n.dot(&(a.coords - c)) < 0.0 {
            n = -n;
        }
        normals.push(n);
        for (x, y) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
            if !edges.contains(&(x, y)) {
                edges.push((x, y));
            }
        }
    }
    let dirs = edges
        .iter()
        .map(|&(x, y)| (pts[y] - pts[x]).normalize())
        .collect();
    (normals, dirs)
}

/// The vertices of a box `[-h, h]` placed by `pose` (f64).
pub fn box_vertices<const D: usize>(
    h: &SVector<f64, D>,
    pose: &Pose<f64, D>,
) -> Vec<Point<f64, D>> {
    (0..1usize << D)
        .map(|m| {
            let x = SVector::<f64, D>::from_fn(|k, _| if m >> k & 1 == 1 { h[k] } else { -h[k] });
            pose.transform_point(&Point::from(x))
        })
        .collect()
}
