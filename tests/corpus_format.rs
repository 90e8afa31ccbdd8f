//! The corpus module shared by the runners (`tests/common/corpus.rs`): parsing, the
//! evaluation's thresholds, and the shapes and poses it builds, checked against the corpus
//! format's own definition of each shape (support values of the world-frame shape: hull
//! points, cuboid corners `R·(s∘h) + t`, ball and capsule) in f64, f32 and FixedI40F24, 2D
//! and 3D. The corpus itself is not in the repository: the last test reads it when
//! `CORPUS_DIR` names it, and is ignored by default.

mod common;
#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/runner.rs"]
mod runner;

use common::{Rng, rotation, support_value};
use convex_proximity::{Real, shape::SupportMap};
use corpus::{Case, FromMatrix, PairQuery, Scalar, dispatch};
use nalgebra::{Rotation, SMatrix, SVector, UnitComplex, UnitQuaternion};
use runner::{Args, guarded, median};
use serde_json::json;

/// Runs `$body::<T, R, D>()` for every scalar, with the runners' rotation types (and the
/// rotation matrix) in 2D and 3D.
macro_rules! per_scalar {
    ($body:ident) => {
        mod $body {
            use super::*;
            #[test]
            fn f64_2d() {
                super::$body::<f64, UnitComplex<f64>, 2>()
            }
            #[test]
            fn f64_3d() {
                super::$body::<f64, UnitQuaternion<f64>, 3>()
            }
            #[test]
            fn f64_matrix_3d() {
                super::$body::<f64, Rotation<f64, 3>, 3>()
            }
            #[test]
            fn f32_2d() {
                super::$body::<f32, UnitComplex<f32>, 2>()
            }
            #[test]
            fn f32_3d() {
                super::$body::<f32, UnitQuaternion<f32>, 3>()
            }
            #[cfg(feature = "fixed")]
            #[test]
            fn fixed_2d() {
                super::$body::<common::Fx, UnitComplex<common::Fx>, 2>()
            }
            #[cfg(feature = "fixed")]
            #[test]
            fn fixed_3d() {
                super::$body::<common::Fx, UnitQuaternion<common::Fx>, 3>()
            }
        }
    };
}

/// A case line with shapes `a` and `b` (JSON values), separated by 0.25.
fn line(a: serde_json::Value, b: serde_json::Value, dim: usize) -> String {
    json!({
        "id": "test-0000", "dim": dim, "category": "sep_random", "a": a, "b": b,
        "expect": {"intersecting": false, "distance": 0.25, "depth": 0.0,
                   "normal": vec![1.0; dim], "witness_a": null, "witness_b": null},
        "meta": {"scale": 4.0, "boundary": false, "normal_unique": true, "normal_margin": null,
                 "witness_unique": false, "sub": "test", "extra": 1}
    })
    .to_string()
}

fn arr<const D: usize>(v: &SVector<f64, D>) -> Vec<f64> {
    v.iter().copied().collect()
}

/// The support value of a corpus shape in the world frame, from its definition in the
/// corpus format.
fn truth<const D: usize>(s: &corpus::ShapeSpec, d: &SVector<f64, D>) -> f64 {
    let vec = |x: &[f64]| SVector::<f64, D>::from_column_slice(x);
    match s {
        corpus::ShapeSpec::Polytope { points } => points
            .iter()
            .map(|p| vec(p).dot(d))
            .fold(f64::NEG_INFINITY, f64::max),
        corpus::ShapeSpec::Ball { center, radius } => vec(center).dot(d) + radius * d.norm(),
        corpus::ShapeSpec::Capsule { a, b, radius } => {
            vec(a).dot(d).max(vec(b).dot(d)) + radius * d.norm()
        }
        corpus::ShapeSpec::Cuboid {
            half_extents,
            rotation,
            translation,
        } => {
            let r = SMatrix::<f64, D, D>::from_fn(|i, j| rotation[i][j]);
            (0..1usize << D)
                .map(|k| {
                    let s = SVector::<f64, D>::from_fn(|i, _| {
                        if k >> i & 1 == 1 {
                            half_extents[i]
                        } else {
                            -half_extents[i]
                        }
                    });
                    (r * s + vec(translation)).dot(d)
                })
                .fold(f64::NEG_INFINITY, f64::max)
        }
    }
}

/// The allowed support error of a shape within `size` of the origin, per scalar.
fn accuracy<T: Real>(size: f64) -> f64 {
    if common::is_fixed::<T>() {
        2e-5 * (1.0 + size)
    } else if common::f(T::default_epsilon()) < 1e-12 {
        1e-13 * (1.0 + size)
    } else {
        4e-6 * (1.0 + size)
    }
}

/// Every shape type, placed at random: the built shape at its pose has the support values
/// the corpus format defines, along random directions and the axes.
fn shapes_match_their_definition<T: Real, R: FromMatrix<T, D>, const D: usize>() {
    let mut rng = Rng(0xC0125 ^ D as u64);
    for round in 0..20 {
        let c: SVector<f64, D> = rng.vector(-5.0, 5.0);
        let n = 1 + round % 12;
        let pts: Vec<Vec<f64>> = (0..n)
            .map(|_| arr(&(c + rng.vector::<D>(-1.0, 1.0))))
            .collect();
        // Rotations and reflections (the box is the same under either).
        let m = rotation::<D>(&mut rng);
        let rows: Vec<Vec<f64>> = (0..D)
            .map(|i| (0..D).map(|j| m[(i, j)]).collect())
            .collect();
        let specs = [
            json!({"type": "polytope", "points": pts}),
            json!({"type": "cuboid", "half_extents": arr(&rng.vector::<D>(0.1, 2.0)),
                   "rotation": rows, "translation": arr(&rng.vector::<D>(-5.0, 5.0))}),
            json!({"type": "ball", "center": arr(&c), "radius": rng.uniform(0.0, 1.0)}),
            json!({"type": "capsule", "a": arr(&c), "b": arr(&(c + rng.vector::<D>(-1.0, 1.0))),
                   "radius": rng.uniform(0.0, 1.0)}),
        ];
        for pair in specs.chunks(2) {
            let case = Case::parse(&line(pair[0].clone(), pair[1].clone(), D)).expect("parses");
            let (pa, pb) = case.placed::<D>().expect("places");
            for (spec, placed) in [(&case.a, &pa), (&case.b, &pb)] {
                let shape = placed.shape::<T>().expect("builds");
                let pose = placed.pose::<T, R>();
                let acc = accuracy::<T>(case.max_coord());
                let mut dirs: Vec<SVector<f64, D>> = (0..16).map(|_| rng.unit()).collect();
                dirs.extend((0..D).map(|i| SVector::from_fn(|j, _| f64::from(u8::from(i == j)))));
                for d in &dirs {
                    let (ours, want) = (support_value(&pose, shape.as_dyn(), d), truth(spec, d));
                    assert!(
                        (ours - want).abs() <= acc,
                        "{spec:?} along {d:?}: support {ours} vs {want} (accuracy {acc:e})"
                    );
                }
            }
        }
    }
}
per_scalar!(shapes_match_their_definition);

/// Round parts survive the trait object: a capsule's core is its segment and its radius is
/// reported, so GJK can run on the core.
#[test]
fn trait_object_keeps_the_round_parts() {
    let spec =
        json!({"type": "capsule", "a": [0.0, 0.0, 0.0], "b": [2.0, 0.0, 0.0], "radius": 0.5});
    let case = Case::parse(&line(spec.clone(), spec, 3)).unwrap();
    let shape = case.placed::<3>().unwrap().0.shape::<f64>().unwrap();
    let s = shape.as_dyn();
    assert_eq!(s.radius(), 0.5);
    let d = SVector::<f64, 3>::new(1.0, 1.0, 0.0);
    assert_eq!(
        s.core_support(&d).coords,
        nalgebra::Vector3::new(1.0, 0.0, 0.0)
    );
    assert!((s.support(&d).y - 0.5 / 2f64.sqrt()).abs() < 1e-15);
}

#[test]
fn signed_distance_thresholds_and_subset() {
    let ball = |c: f64| json!({"type": "ball", "center": [c, 0.0, 0.0], "radius": 1.0});
    let mut case = Case::parse(&line(ball(0.0), ball(2.25), 3)).unwrap();
    assert_eq!(case.signed_distance(), 0.25);
    assert_eq!(case.max_coord(), 3.25);
    assert!(case.unit_scale() && Scalar::Fixed.covers(&case));
    assert_eq!(Scalar::F64.clear_band(&case), 1e-12 * (4.0 + 3.25));
    assert_eq!(Scalar::F32.clear_band(&case), 1e-6 * (4.0 + 3.25));
    assert_eq!(Scalar::F64.error_threshold(&case), 1e-9 * 4.0);
    assert_eq!(Scalar::F32.error_threshold(&case), 1e-4 * (4.0 + 3.25));
    assert_eq!(Scalar::Fixed.error_threshold(&case), 1e-4);
    assert!(Scalar::F64.is_clear(&case));
    case.meta.boundary = true;
    assert!(!Scalar::F64.is_clear(&case));
    case.meta.boundary = false;
    case.expect.intersecting = true;
    case.expect.depth = 1e-7;
    assert_eq!(case.signed_distance(), -1e-7);
    assert!(Scalar::F64.is_clear(&case) && !Scalar::F32.is_clear(&case));
    // Far from the origin or off the unit-scale categories: not in the fixed-point subset.
    let far = Case::parse(&line(ball(0.0), ball(8.5), 3)).unwrap();
    assert!(!far.unit_scale() && !Scalar::Fixed.covers(&far) && Scalar::F32.covers(&far));
    case.category = "scale".to_string();
    assert!(!case.unit_scale());
}

#[test]
fn bad_input_is_a_message_not_a_panic() {
    let missing = corpus::load(std::path::Path::new("/nonexistent/corpus"), 3).unwrap_err();
    assert!(
        missing.contains("corpus3d.jsonl") && missing.contains("--corpus"),
        "{missing}"
    );
    let dir = std::env::temp_dir().join(format!("corpus-format-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ball = json!({"type": "ball", "center": [0.0, 0.0], "radius": 1.0});
    std::fs::write(
        dir.join("corpus2d.jsonl"),
        format!("{}\n{{not json\n", line(ball.clone(), ball, 2)),
    )
    .unwrap();
    let bad = corpus::load(&dir, 2).unwrap_err();
    assert!(bad.contains("corpus2d.jsonl:2:"), "{bad}");
    std::fs::remove_dir_all(&dir).unwrap();
    // A 2D point in a 3D case.
    let flat = json!({"type": "polytope", "points": [[0.0, 1.0]]});
    let case = Case::parse(&line(flat.clone(), flat, 3)).unwrap();
    assert!(
        case.placed::<3>()
            .unwrap_err()
            .contains("2 coordinates where 3")
    );
}

#[test]
fn guarded_turns_a_panic_into_its_message() {
    assert_eq!(guarded(|| 7), Ok(7));
    let e = guarded(|| -> u8 { panic!("boom {}", 42) }).unwrap_err();
    assert!(
        e.starts_with("boom 42 at ") && e.contains("corpus_format.rs"),
        "{e}"
    );
}

#[test]
fn command_line_and_median() {
    let spec = [("corpus", true), ("batches", true), ("verbose", false)];
    let args = |v: &[&str]| Args::parse_from(&spec, v.iter().map(|s| s.to_string()));
    let a = args(&[
        "--corpus",
        "/data",
        "--verbose",
        "--batches",
        "9",
        "--corpus",
        "/other",
    ])
    .unwrap();
    assert_eq!(a.value("corpus"), Some("/other"));
    assert!(a.flag("verbose") && a.flag("batches") && !args(&[]).unwrap().flag("verbose"));
    assert_eq!(a.number("batches", 7usize), Ok(9));
    assert_eq!(args(&[]).unwrap().number("batches", 7usize), Ok(7));
    assert!(
        args(&["--batches", "x"])
            .unwrap()
            .number("batches", 7usize)
            .is_err()
    );
    assert!(
        args(&["--nope"])
            .unwrap_err()
            .contains("unknown option `--nope`")
    );
    assert!(args(&["--corpus"]).unwrap_err().contains("needs a value"));
    assert!(
        args(&["stray"])
            .unwrap_err()
            .contains("unexpected argument")
    );
    assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    assert!(median(&mut []).is_nan());
}

/// Which concrete types a pair query sees.
struct Names;
impl PairQuery<f64, 2> for Names {
    type Output = (&'static str, &'static str);
    fn run<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(&mut self, _: &A, _: &B) -> Self::Output {
        (std::any::type_name::<A>(), std::any::type_name::<B>())
    }
}

#[test]
fn dispatch_reaches_the_concrete_types() {
    let hull = json!({"type": "polytope", "points": [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]});
    let cap = json!({"type": "capsule", "a": [0.0, 0.0], "b": [1.0, 0.0], "radius": 0.1});
    let case = Case::parse(&line(hull, cap, 2)).unwrap();
    let (pa, pb) = case.placed::<2>().unwrap();
    let (a, b) = (pa.shape::<f64>().unwrap(), pb.shape::<f64>().unwrap());
    let (na, nb) = dispatch(&a, &b, &mut Names);
    assert!(
        na.contains("Polytope") && nb.contains("Capsule"),
        "{na}, {nb}"
    );
}

#[test]
fn rotations_are_exact_to_rounding() {
    let mut rng = Rng(0xA11);
    // A proper rotation: the generator's matrix orthonormalized once more (a second
    // Gram–Schmidt pass makes it orthonormal to rounding) with its determinant made +1.
    fn proper<const D: usize>(rng: &mut Rng) -> SMatrix<f64, D, D> {
        let mut m = rotation::<D>(rng);
        for j in 0..D {
            let mut c = m.column(j).into_owned();
            for k in 0..j {
                let prev = m.column(k).into_owned();
                c -= prev * prev.dot(&c);
            }
            m.set_column(j, &c.normalize());
        }
        if corpus::determinant(&m) < 0.0 {
            m.set_column(0, &-m.column(0));
        }
        m
    }
    for _ in 0..200 {
        let e3 = corpus::rotation_error::<3, UnitQuaternion<f64>>(&proper::<3>(&mut rng));
        let e2 = corpus::rotation_error::<2, UnitComplex<f64>>(&proper::<2>(&mut rng));
        assert!(e3 < 1e-15 && e2 < 1e-15, "{e3:e} {e2:e}");
    }
}

/// Every line of the corpus parses, and every shape built in f64 has the support values of
/// its definition. Run with `cargo test --release --test corpus_format -- --ignored`
/// (`CORPUS_DIR` names the corpus directory).
#[test]
#[ignore = "needs the corpus, which is not in the repository"]
fn every_corpus_shape_matches_its_definition() {
    let dir = corpus::corpus_dir(None).unwrap_or_else(|e| panic!("{e}"));
    fn check<const D: usize, R: FromMatrix<f64, D>>(cases: &[Case]) {
        let mut rng = Rng(0xD1 + D as u64);
        for case in cases {
            let (pa, pb) = case.placed::<D>().expect("places");
            for (spec, placed) in [(&case.a, &pa), (&case.b, &pb)] {
                let shape = placed.shape::<f64>().expect("builds");
                let pose = placed.pose::<f64, R>();
                let acc = 1e-14 * (case.meta.scale + case.max_coord());
                for _ in 0..4 {
                    let d: SVector<f64, D> = rng.unit();
                    let (ours, want) = (support_value(&pose, shape.as_dyn(), &d), truth(spec, &d));
                    assert!((ours - want).abs() <= acc, "{}: {ours} vs {want}", case.id);
                }
            }
        }
    }
    let c3 = corpus::load(&dir, 3).unwrap();
    let c2 = corpus::load(&dir, 2).unwrap();
    assert!(!c3.is_empty() && !c2.is_empty());
    check::<3, UnitQuaternion<f64>>(&c3);
    check::<2, UnitComplex<f64>>(&c2);
}
