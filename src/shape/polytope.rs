//! Polytope: the convex hull of a point cloud, with faces and a hill-climbing support map
//! in 2D and 3D.

mod climb;
mod scan;

use super::hull::{self, Degenerate, HullMesh, Tol};
use super::{SupportMap, check_finite};
use crate::real::{is_fixed, lit};
use crate::tolerance::hull::{FIXED_MIN_DIR, PLANE_ULPS};
use crate::{Real, ShapeError};
use alloc::{boxed::Box, vec::Vec};
use climb::Climb;
use nalgebra::{Point, SVector, Unit};
use scan::Lanes;

/// The convex hull of a finite point cloud, in any dimension. The points need not be in
/// convex position (interior points never win a support query) and may repeat.
///
/// In 2D and 3D the hull is computed at construction: its [`faces`](Self::faces) (2D:
/// edges; 3D: coplanar triangles merged into polygons), its corner
/// [`vertices`](Self::vertices), and (3D) a vertex graph that lets [`SupportMap::support`]
/// hill-climb from the previous answer instead of scanning every point once the hull
/// has at least [`HILL_CLIMB_MIN_VERTICES`](Self::HILL_CLIMB_MIN_VERTICES) vertices.
/// 2D scans: a polygon's vertices have only two neighbours, too few for climbing.
/// The support *value* `d·support(d)` equals the brute-force maximum over the points
/// (tested bit for bit on thousands of directions for clouds with coplanar, collinear,
/// duplicate and interior points in f32, f64 and FixedI40F24), and the point is the
/// same one brute force returns except between rounding-tied points.
///
/// Degenerate clouds (one point, duplicates only, collinear, or in 3D coplanar within the
/// tolerance) and other dimensions get no faces and no vertices; their support map is
/// brute force over the points, and every query still works.
///
/// ```
/// use convex_proximity::shape::{Polytope, SupportMap};
/// use nalgebra::{Point2, Point3, Vector2, Vector3};
/// let tri = Polytope::try_new(vec![
///     Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0), Point2::new(0.2, 0.2),
/// ]).unwrap();
/// assert_eq!(tri.support(&Vector2::new(1.0, 0.1)), Point2::new(1.0, 0.0));
/// assert_eq!(tri.vertices(), &[0, 1, 2]); // the interior point is not a vertex
/// assert_eq!(tri.faces().len(), 3);
/// assert!(Polytope::<f64, 2>::try_new(vec![]).is_err());
///
/// // A unit cube in f32 with a point on a face: 6 quadrilateral faces, 8 vertices.
/// let mut pts: Vec<Point3<f32>> = (0..8)
///     .map(|m| Point3::new((m & 1) as f32, (m >> 1 & 1) as f32, (m >> 2 & 1) as f32))
///     .collect();
/// pts.push(Point3::new(0.5, 0.5, 1.0));
/// let cube = Polytope::try_new(pts).unwrap();
/// assert_eq!(cube.faces().len(), 6);
/// assert_eq!(cube.vertices().len(), 8);
/// assert_eq!(cube.support(&Vector3::new(1.0, 1.0, 1.0)), Point3::new(1.0, 1.0, 1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope<T: Real, const D: usize> {
    /// The points a support scan reads: every point, or (a hull without a climb whose
    /// cloud has points that can never win a support query) only the hull graph's nodes,
    /// ascending (corners and points within its margin of the surface).
    points: Vec<Point<T, D>>,
    /// The points as given when `points` holds only the nodes.
    given: Option<Vec<Point<T, D>>>,
    center: Point<T, D>,
    vertices: Vec<usize>,
    faces: Vec<Face<T, D>>,
    climb: Option<Climb<T, D>>,
    face_climb: Option<FaceClimb<T, D>>,
    /// `points` in blocks of four for the scan (empty with a climb, or for `D > 3`).
    lanes: Lanes<T, D>,
}

/// A face of a [`Polytope`]'s hull: in 3D a convex polygon (coplanar hull triangles
/// merged), in 2D an edge of the hull polygon. Local frame of the polytope.
///
/// ```
/// use convex_proximity::shape::Polytope;
/// use nalgebra::{Point2, Vector2};
/// let sq = Polytope::try_new(vec![
///     Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(1.0, 1.0), Point2::new(0.0, 1.0),
/// ]).unwrap();
/// let f = &sq.faces()[sq.face_towards(&Vector2::new(0.1, -1.0)).unwrap()];
/// assert_eq!(f.vertex_indices(), &[0, 1]); // the bottom edge, CCW order
/// assert_eq!(f.normal().into_inner(), Vector2::new(0.0, -1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Face<T: Real, const D: usize> {
    normal: Unit<SVector<T, D>>,
    vertices: Box<[usize]>,
    id: usize,
}

impl<T: Real, const D: usize> Face<T, D> {
    /// The outward unit normal (unit up to the rounding of `T`).
    #[must_use]
    pub fn normal(&self) -> Unit<SVector<T, D>> {
        self.normal
    }

    /// The face's vertices as indices into [`Polytope::points`], counter-clockwise seen
    /// from outside (3D); in 2D the edge `[from, to]` of the counter-clockwise polygon.
    #[must_use]
    pub fn vertex_indices(&self) -> &[usize] {
        &self.vertices
    }

    /// The face's id: its index in [`Polytope::faces`], stable for a given point list.
    #[must_use]
    pub fn id(&self) -> usize {
        self.id
    }
}

/// The face climb: the face normals as points (index = face id) and the climb over
/// their hull.
#[derive(Clone, Debug, PartialEq)]
struct FaceClimb<T: Real, const D: usize> {
    normals: Vec<Point<T, D>>,
    climb: Climb<T, D>,
}

impl<T: Real, const D: usize> Polytope<T, D> {
    /// Hulls with at least this many graph vertices (hull vertices plus points lying on
    /// the surface within the tolerance) answer support queries by hill climbing; smaller
    /// ones (and clouds without a hull) by brute force. Measured (callgrind, 20 000
    /// manifolds of a prism hull resting on a box hull): the scan costs 6% fewer
    /// instructions at 32 vertices, 3% fewer at 48, and the same at 64.
    pub const HILL_CLIMB_MIN_VERTICES: usize = 64;

    /// 3D hulls with at least this many faces answer [`face_towards`](Self::face_towards)
    /// by hill climbing; smaller ones (and 2D polygons) scan their faces (measured on
    /// sphere hulls: the climb wins from about 100 faces for random directions).
    pub const HILL_CLIMB_MIN_FACES: usize = 128;

    /// The hull of `points`.
    ///
    /// In 2D and 3D this computes the hull's faces and vertex graph (`O(n log n)` expected,
    /// in f64; 100 000 points on a sphere in about 1.5 s, docs/hull.md): see
    /// [`faces`](Self::faces) for the tolerances. The [`center`](SupportMap::center) is
    /// the points' mean, computed in f64 and clamped to their bounding box (no overflow in
    /// fixed-point near the range's ends). 3D hulls with at least
    /// [`HILL_CLIMB_MIN_FACES`](Self::HILL_CLIMB_MIN_FACES) faces also get the hull of
    /// their face normals (for [`face_towards`](Self::face_towards)).
    ///
    /// # Errors
    /// [`ShapeError::Empty`] for no points, [`ShapeError::NonFinite`] (with the index of the
    /// first bad point) for a NaN or infinite coordinate, [`ShapeError::HullFailed`] if the
    /// 3D hull failed its consistency checks at every tolerance tried (never observed; see
    /// `src/shape/hull/mod.rs`). Flat clouds are not errors: they get no faces.
    pub fn try_new(points: Vec<Point<T, D>>) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::Empty);
        }
        for (i, p) in points.iter().enumerate() {
            check_finite(&p.coords, i)?;
        }
        let mut out = Self {
            center: mean(&points)?,
            points,
            given: None,
            vertices: Vec::new(),
            faces: Vec::new(),
            climb: None,
            face_climb: None,
            lanes: Lanes::default(),
        };
        if D == 2 || D == 3 {
            let mut pts = Vec::with_capacity(out.points.len());
            for (i, p) in out.points.iter().enumerate() {
                pts.push(to_f64(p).ok_or(ShapeError::NonFinite { index: i })?);
            }
            match hull_of::<T>(&hull::Cloud::new(pts, D), D) {
                Ok(h) => out.install(h.mesh, &h.tol),
                Err(Degenerate::Failed) => return Err(ShapeError::HullFailed),
                Err(_) => {} // flat: no faces, brute-force support (exact)
            }
        }
        if out.climb.is_none() {
            out.lanes = Lanes::new(&out.points);
        }
        Ok(out)
    }

    /// The points as given.
    #[must_use]
    pub fn points(&self) -> &[Point<T, D>] {
        self.given.as_deref().unwrap_or(&self.points)
    }

    /// The hull's corner vertices as indices into [`points`](Self::points), ascending.
    /// Interior points, repeated points (only the first copy counts) and points in the
    /// middle of a face or edge are not vertices. Empty when there is no hull (D ∉ {2, 3}
    /// or a degenerate cloud).
    ///
    /// ```
    /// use convex_proximity::shape::Polytope;
    /// use nalgebra::Point2;
    /// let p = Polytope::try_new(vec![
    ///     Point2::new(0.0f32, 0.0), Point2::new(2.0, 0.0), Point2::new(1.0, 0.0), // on an edge
    ///     Point2::new(2.0, 2.0), Point2::new(2.0, 2.0), Point2::new(0.0, 2.0),  // duplicate
    /// ]).unwrap();
    /// assert_eq!(p.vertices(), &[0, 1, 3, 5]);
    /// ```
    #[must_use]
    pub fn vertices(&self) -> &[usize] {
        &self.vertices
    }

    /// The hull's faces, in 3D convex polygons and in 2D the edges of the polygon, each
    /// with its outward unit normal, its vertices counter-clockwise seen from outside and
    /// its id (= its index here). Empty when there is no hull.
    ///
    /// **Tolerances** (relative to the cloud's scale `s` = its bounding-box size plus its
    /// largest absolute coordinate; for fixed-point the absolute resolution): the 3D hull
    /// is built at the f64 rounding `16 ε₆₄ s` (a point more than that in front of a
    /// triangle's plane is outside it), whatever `T`; a cloud within `τ = 16 ε s` of a
    /// point, line or (3D) plane is flat; adjacent triangles merge into one convex face
    /// when their normals agree in sign and all their vertices lie within `τ` of the
    /// largest one's plane (an angle of about `τ / size`); polygon vertices within `τ` of
    /// the line through their neighbours are dropped (2D: the polygon's vertices within
    /// `τ` of the line through their neighbours). `ε` is `T::default_epsilon()` (f64
    /// 2.2e-16, f32 1.2e-7, FixedI40F24 6e-8). A 3D hull that fails its consistency checks
    /// is built again with the tolerances 16 and then 256 times coarser (a plate a few `τ`
    /// thick can then read as flat). docs/hull.md has the details.
    ///
    /// ```
    /// use convex_proximity::shape::Polytope;
    /// use nalgebra::{Point3, Vector3};
    /// // A square pyramid: 4 triangles and the square base.
    /// let p = Polytope::try_new(vec![
    ///     Point3::new(-1.0, -1.0, 0.0), Point3::new(1.0, -1.0, 0.0), Point3::new(1.0, 1.0, 0.0),
    ///     Point3::new(-1.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0),
    /// ]).unwrap();
    /// let sizes: Vec<usize> = p.faces().iter().map(|f| f.vertex_indices().len()).collect();
    /// assert_eq!(sizes.iter().filter(|&&n| n == 3).count(), 4);
    /// let base = &p.faces()[p.face_towards(&Vector3::new(0.0, 0.0, -1.0)).unwrap()];
    /// assert_eq!(base.vertex_indices().len(), 4);
    /// assert_eq!(base.normal().into_inner(), Vector3::new(0.0, 0.0, -1.0));
    /// ```
    #[must_use]
    pub fn faces(&self) -> &[Face<T, D>] {
        &self.faces
    }

    /// The id of the face whose outward normal has the largest dot product with `dir`
    /// (the first of equal ones), or `None` without faces.
    ///
    /// 3D hulls with at least [`HILL_CLIMB_MIN_FACES`](Self::HILL_CLIMB_MIN_FACES) faces
    /// answer by hill climbing from the previous answer over the hull of the face normals
    /// (the normals lie on the unit sphere, so the face wanted is the support point of
    /// their hull along `dir`), with the same guarantee as
    /// [`SupportMap::support`]: the dot product equals the scan's. Smaller hulls and 2D
    /// scan the faces.
    ///
    /// ```
    /// use convex_proximity::shape::Polytope;
    /// use nalgebra::{Point2, Vector2};
    /// let p = Polytope::try_new(vec![Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)]).unwrap();
    /// let f = p.face_towards(&Vector2::new(1.0, 1.0)).unwrap();
    /// assert_eq!(p.faces()[f].vertex_indices(), &[1, 2]); // the hypotenuse
    /// let line = Polytope::try_new(vec![Point2::new(0.0, 0.0), Point2::new(1.0, 0.0)]).unwrap();
    /// assert_eq!(line.face_towards(&Vector2::new(0.0, 1.0)), None); // degenerate: no faces
    /// ```
    #[must_use]
    pub fn face_towards(&self, dir: &SVector<T, D>) -> Option<usize> {
        if self.faces.is_empty() {
            return None;
        }
        Some(match &self.face_climb {
            Some(fc) => fc.climb.support(&fc.normals, dir),
            None => {
                // The scan; a face's id is its index.
                let mut best = (0, self.faces[0].normal.dot(dir));
                for f in &self.faces[1..] {
                    let d = f.normal.dot(dir);
                    if d > best.1 {
                        best = (f.id, d);
                    }
                }
                best.0
            }
        })
    }

    /// Stores the hull's faces, vertices and (3D, large hulls) the climbing graphs.
    fn install(&mut self, mesh: HullMesh, tol: &Tol) {
        self.faces = mesh
            .faces
            .into_iter()
            .enumerate()
            .map(|(id, f)| Face {
                normal: Unit::new_unchecked(SVector::from_fn(|k, _| lit(f.normal[k]))),
                vertices: f.ring.into_boxed_slice(),
                id,
            })
            .collect();
        self.vertices = mesh.vertices;
        // Interior points never win a support query (the graph holds every point that
        // may): a cloud of 90 points around an 8-gon scans 8. A climb reads the graph.
        let climbs = D == 3 && mesh.nodes.len() >= Self::HILL_CLIMB_MIN_VERTICES;
        if !climbs && mesh.nodes.len() < self.points.len() {
            let scan = mesh
                .nodes
                .iter()
                .map(|&i| self.points[i as usize])
                .collect();
            self.given = Some(core::mem::replace(&mut self.points, scan));
        }
        // 3D only: a polygon's vertices have two neighbours each, so a climb from an
        // unrelated previous answer walks a quarter of the polygon on average (measured
        // slower than the scan on a 1000-vertex circle, docs/PERFORMANCE.md). The same
        // holds for its edges.
        if D != 3 {
            return;
        }
        if mesh.nodes.len() >= Self::HILL_CLIMB_MIN_VERTICES {
            self.climb = Some(Climb::new(
                &self.points,
                mesh.nodes,
                mesh.corner,
                mesh.offsets,
                mesh.nbrs,
                tol,
            ));
        }
        if self.faces.len() >= Self::HILL_CLIMB_MIN_FACES {
            // Not the faces' adjacency: `n·d` over it has false local maxima (two faces
            // meeting at a vertex only, with steep faces between them; measured on 9% of
            // random directions for a 1000-point sphere hull). The hull of the normals has
            // none, `n·d` being linear. Its failure (not expected: the normals of a 3D
            // hull span every direction) keeps the scan.
            let normals: Vec<Point<T, D>> =
                self.faces.iter().map(|f| Point::from(*f.normal)).collect();
            // Unit vectors: always convertible; a failure keeps the scan (exact, slower).
            let pts: Option<Vec<[f64; 3]>> = normals.iter().map(to_f64).collect();
            let hull = pts.map(|pts| hull_of::<T>(&hull::Cloud::new(pts, D), D));
            if let Some(Ok(hull::Hull { mesh: m, tol: t })) = hull {
                self.face_climb = Some(FaceClimb {
                    climb: Climb::new(&normals, m.nodes, m.corner, m.offsets, m.nbrs, &t)
                        .with_seeds(),
                    normals,
                });
            }
        }
    }
}

/// The hull of `cloud` (D = 2 or 3), with the tolerances documented at
/// [`Polytope::faces`] (returned in the input's units).
fn hull_of<T: Real>(cloud: &hull::Cloud, d: usize) -> Result<hull::Hull, Degenerate> {
    let tol = tolerances::<T>(d, cloud.size, cloud.abs, cloud.unit);
    cloud.hull(d, &tol)
}

/// The point's first three coordinates in f64 (`z = 0` in 2D), or `None` if one has no
/// finite f64 value.
fn to_f64<T: Real, const D: usize>(p: &Point<T, D>) -> Option<[f64; 3]> {
    let mut q = [0.0f64; 3];
    for k in 0..D.min(3) {
        q[k] = nalgebra::try_convert::<T, f64>(p[k]).filter(|x| x.is_finite())?;
    }
    Some(q)
}

/// The points' mean, computed in f64 about the bounding-box centre (`lo/2 + hi/2`; each
/// term `(x − mid)/n`, so no sum can overflow, even near `f64::MAX`), converted to `T`
/// and clamped to the box, which is found by comparisons only. In fixed-point the mean of
/// points near the range's ends is representable but their differences and sums are
/// not: summed in I40F24 (range ±5.5e11), points at ±3e11 wrapped to a centre at
/// 4.25e11, outside the hull. A mean at or beyond a box side takes that side's
/// coordinate itself (an f64 rounding of a coordinate near the range's end could convert
/// back past it). `Err` for a coordinate without an f64 value (not a supported scalar).
fn mean<T: Real, const D: usize>(points: &[Point<T, D>]) -> Result<Point<T, D>, ShapeError> {
    let f = |x: T, i: usize| {
        nalgebra::try_convert::<T, f64>(x)
            .filter(|x| x.is_finite())
            .ok_or(ShapeError::NonFinite { index: i })
    };
    let n = points.len() as f64;
    let mut c = points[0];
    for k in 0..D {
        let (mut lo, mut hi) = (points[0][k], points[0][k]);
        for p in points {
            if p[k] < lo {
                lo = p[k];
            }
            if p[k] > hi {
                hi = p[k];
            }
        }
        let (lf, hf) = (f(lo, 0)?, f(hi, 0)?);
        let mid = lf / 2.0 + hf / 2.0;
        let mut m = 0.0;
        for (i, p) in points.iter().enumerate() {
            m += (f(p[k], i)? - mid) / n;
        }
        let m = mid + m;
        c[k] = if m <= lf {
            lo
        } else if m >= hf {
            hi
        } else {
            let x: T = lit(m);
            if x < lo {
                lo
            } else if x > hi {
                hi
            } else {
                x
            }
        };
    }
    Ok(c)
}

/// The hull tolerances for scalar `T` in dimension `d`, for a cloud of bounding-box size
/// `size` whose largest absolute coordinate is `abs`, both in units of `unit` input units
/// (see [`Polytope::faces`]); in those units too.
fn tolerances<T: Real>(d: usize, size: f64, abs: f64, unit: f64) -> Tol {
    let eps: f64 = nalgebra::try_convert(T::default_epsilon()).unwrap_or(f64::EPSILON);
    let s = size + abs;
    // Input resolution (relative for floats, absolute for fixed-point) plus the f64
    // arithmetic of the hull computation.
    let res = if is_fixed::<T>() { eps / unit } else { eps * s } + f64::EPSILON * s;
    let plane = PLANE_ULPS * res;
    let d = d as f64;
    // Support values per unit `|d|∞`: the hull may be off by `plane` (√d·plane per unit
    // |d|∞, counted twice for the two sides of a gap, doubled for room), and a float dot
    // product rounds by up to d·ε·Σ|dᵢpᵢ| ≤ d²·ε·abs (twice for a gap).
    let round = if is_fixed::<T>() {
        0.0
    } else {
        2.0 * d * d * eps * abs
    };
    let band = 4.0 * d * plane + 2.0 * round;
    // Interior points deeper than `margin` lose every support query by more than the band.
    let margin = if is_fixed::<T>() {
        2.0 * band + 4.0 * d * eps / FIXED_MIN_DIR / unit
    } else {
        2.0 * band
    };
    Tol {
        plane,
        margin,
        band,
        round: PLANE_ULPS * f64::EPSILON * s,
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Polytope<T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.points[match &self.climb {
            Some(c) => c.support(&self.points, dir),
            None => self.lanes.support(&self.points, dir),
        }]
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.center
    }
}
