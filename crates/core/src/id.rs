//! Stable string ids for the lab's choice enums (strategy, integrator, camera driver, and
//! the app's own, such as the parts of a frame `bench-render --without` takes): how they
//! print, parse and (de)serialise.

/// Gives an enum with `const ALL: [Self; N]` and `fn id(self) -> &'static str` a `Display`
/// that prints the id, a `FromStr` that parses it, an error type that lists the allowed
/// ids when parsing fails, and serde's `Serialize` and `Deserialize` as the id (a value that
/// is not one is named as `FromStr` names it). A fourth argument names another list of
/// every parseable value (for an enum whose `ALL` is not all of them). Exported for the
/// crates above, which need `serde` as a dependency of their own.
#[macro_export]
macro_rules! stable_ids {
    ($ty:ident, $error:ident, $what:literal) => {
        $crate::stable_ids!($ty, $error, $what, $ty::ALL);
    };
    ($ty:ident, $error:ident, $what:literal, $all:expr) => {
        #[doc = concat!("A ", $what, " id that is not one of the allowed ones.")]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $error(pub String);

        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "unknown {} {:?} (allowed: ", $what, self.0)?;
                for (i, value) in $all.iter().enumerate() {
                    let separator = if i == 0 { "" } else { ", " };
                    write!(f, "{separator}{}", value.id())?;
                }
                f.write_str(")")
            }
        }

        impl std::error::Error for $error {}

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $all.into_iter()
                    .find(|value| value.id() == s)
                    .ok_or_else(|| $error(s.to_owned()))
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.id())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::setting::read(deserializer, $crate::setting::Value::id)
            }
        }
    };
}

pub(crate) use crate::stable_ids;
