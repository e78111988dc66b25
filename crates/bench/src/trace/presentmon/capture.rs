//! The rows of a PresentMon file, kept per application and swap chain, and the choice of
//! the application and the swap chain whose frames are read.

use std::collections::HashMap;
use std::io::BufRead;

use super::columns::{Layout, Measured, Reference};
use super::{MAX_SWAP_CHAINS, NEVER_SHOWN};
use crate::trace::TraceError;
use crate::trace::csv::Records;
use crate::trace::error::{Place, shown};

/// One swap chain of an application: its rows and the frames read from them so far. As in
/// PresentMon, whose swap chain state lives in each process's: a swap chain is an address
/// within a process, so the same address in two processes (`0x0`, PresentMon's address
/// for presents it cannot tie to a swap chain, in every GDI or legacy presenter) is two
/// swap chains, each with a timeline of its own.
#[derive(Default)]
pub(super) struct SwapChain {
    /// The address as the file writes it; `None` when the file has no swap chain column.
    address: Option<String>,
    /// The process ID as the file writes it; `None` when the file has no process column.
    process: Option<String>,
    /// Rows of this swap chain.
    rows: usize,
    /// Frame times so far, ns.
    pub(super) frames_ns: Vec<u64>,
    /// Per frame, its display delay in ns or [`NEVER_SHOWN`]; empty when the file has no
    /// display columns.
    pub(super) display_ns: Vec<u64>,
    /// For CPU-start intervals: the display delay of the swap chain's first row, which has
    /// no frame time but anchors the timeline (its CPU start is the first frame's start less
    /// the first frame time); `None` when it was never shown or the file has no display
    /// columns.
    pub(super) anchor_ns: Option<u64>,
    /// For CPU-start intervals: the frame-time field of the previous row, which times the
    /// next row's frame.
    previous: Option<Measured>,
    /// Rows that gave no frame.
    pub(super) skipped: usize,
    /// The first error in a used value; reading stops there (it is only reported if this
    /// swap chain is chosen).
    pub(super) error: Option<TraceError>,
}

impl SwapChain {
    /// Takes the current row, which belongs to this swap chain.
    fn take_row<R: BufRead>(&mut self, records: &Records<R>, layout: &Layout, place: Place) {
        self.rows += 1;
        if self.error.is_some() {
            return;
        }
        let measured = layout.measure(records, place);
        // The row whose frame-time field times this row's frame: itself for
        // MsBetweenPresents, the previous one for CPU-start intervals.
        let frame = match layout.reference {
            Reference::Present => Some(measured),
            Reference::CpuStart => self.previous.replace(measured),
        };
        if layout.reference == Reference::CpuStart && self.rows == 1 && !layout.display.is_empty() {
            match layout.display_delay_ns(records, place) {
                Ok(delay) => self.anchor_ns = delay,
                Err(error) => {
                    self.error = Some(error);
                    return;
                }
            }
        }
        match frame {
            None | Some(Measured::Missing) => self.skipped += 1,
            Some(Measured::Bad(error)) => self.error = Some(error),
            Some(Measured::Ns(ns)) => {
                if !layout.display.is_empty() {
                    match layout.display_delay_ns(records, place) {
                        Ok(delay) => self.display_ns.push(delay.unwrap_or(NEVER_SHOWN)),
                        Err(error) => {
                            self.error = Some(error);
                            return;
                        }
                    }
                }
                self.frames_ns.push(ns);
            }
        }
    }
}

/// An application (process name) in the file.
pub(super) struct Application {
    /// The name as the file writes it.
    pub(super) name: String,
    /// Rows of this application.
    rows: usize,
    /// Whether its rows are kept: always without `--process`, else when its name matches.
    kept: bool,
    /// Its swap chains, in order of first appearance.
    pub(super) swap_chains: Vec<SwapChain>,
    /// Index into `swap_chains` by process ID and address (`""` for a column the file
    /// lacks).
    by_address: HashMap<(String, String), usize>,
}

/// Everything read from the rows: the applications, in order of first appearance so ties
/// resolve the same way every time.
pub(super) struct Capture<'a> {
    /// The applications.
    pub(super) applications: Vec<Application>,
    /// Index into `applications` by name.
    by_name: HashMap<String, usize>,
    /// Applications plus swap chains so far, against [`MAX_SWAP_CHAINS`].
    groups: usize,
    /// `--process`, trimmed.
    requested: Option<&'a str>,
}

impl<'a> Capture<'a> {
    /// No rows yet; `requested` is `--process`, trimmed.
    pub(super) fn new(requested: Option<&'a str>) -> Self {
        Capture {
            applications: Vec::new(),
            by_name: HashMap::new(),
            groups: 0,
            requested,
        }
    }

    /// Takes the current row: counts it for its application and, if that application's rows
    /// are kept, for its swap chain.
    pub(super) fn take_row<R: BufRead>(
        &mut self,
        records: &Records<R>,
        application_column: usize,
        swap_chain_column: Option<usize>,
        process_column: Option<usize>,
        layout: &Layout,
        place: Place,
    ) -> Result<(), TraceError> {
        let name = records.field(application_column);
        let index = match self.by_name.get(name.as_ref()) {
            Some(&index) => index,
            None => {
                self.count_group(place)?;
                self.by_name
                    .insert(name.to_string(), self.applications.len());
                self.applications.push(Application {
                    kept: self
                        .requested
                        .is_none_or(|requested| name_matches(&name, requested).is_some()),
                    name: name.into_owned(),
                    rows: 0,
                    swap_chains: Vec::new(),
                    by_address: HashMap::new(),
                });
                self.applications.len() - 1
            }
        };
        self.applications[index].rows += 1;
        if !self.applications[index].kept {
            return Ok(());
        }
        let address = swap_chain_column.map(|column| records.field(column));
        let process = process_column.map(|column| records.field(column));
        let key = (
            process.as_deref().unwrap_or_default().to_owned(),
            address.as_deref().unwrap_or_default().to_owned(),
        );
        let chain = match self.applications[index].by_address.get(&key) {
            Some(&chain) => chain,
            None => {
                self.count_group(place)?;
                let application = &mut self.applications[index];
                application
                    .by_address
                    .insert(key, application.swap_chains.len());
                application.swap_chains.push(SwapChain {
                    address: address.map(|address| address.into_owned()),
                    process: process.map(|process| process.into_owned()),
                    ..SwapChain::default()
                });
                application.swap_chains.len() - 1
            }
        };
        self.applications[index].swap_chains[chain].take_row(records, layout, place);
        Ok(())
    }

    /// Counts a new application or swap chain; fails past [`MAX_SWAP_CHAINS`].
    fn count_group(&mut self, place: Place) -> Result<(), TraceError> {
        self.groups += 1;
        if self.groups > MAX_SWAP_CHAINS {
            return Err(TraceError::TooManySwapChains {
                origin: place.origin.to_owned(),
                line: place.line,
                limit: MAX_SWAP_CHAINS,
            });
        }
        Ok(())
    }

    /// The application to use: `--process` (an exact name first, then one with `.exe`
    /// added), else the one with the most rows, said in a note.
    pub(super) fn choose(
        &self,
        origin: &str,
        notes: &mut Vec<String>,
    ) -> Result<usize, TraceError> {
        let counts: Vec<(&str, usize)> = self
            .applications
            .iter()
            .map(|application| (application.name.as_str(), application.rows))
            .collect();
        if let Some(requested) = self.requested {
            let matching = |rank| {
                self.applications.iter().position(|application| {
                    name_matches(&application.name, requested) == Some(rank)
                })
            };
            return matching(Match::Exact)
                .or_else(|| matching(Match::WithExe))
                .ok_or_else(|| TraceError::UnknownProcess {
                    origin: origin.to_owned(),
                    requested: shown(requested),
                    available: if counts.is_empty() {
                        "none".to_owned()
                    } else {
                        list(&counts, None)
                    },
                });
        }
        let Some(most) = most_rows(&counts) else {
            return Err(TraceError::Empty {
                origin: origin.to_owned(),
            });
        };
        let (name, count) = (shown(counts[most].0), counts[most].1);
        notes.push(if counts.len() == 1 {
            format!(
                "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the only \
                 application in the file"
            )
        } else {
            format!(
                "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the \
                 application with the most rows; also present: {}; choose another with \
                 --process NAME",
                list(&counts, Some(most))
            )
        });
        Ok(most)
    }
}

/// How an application's name matches `--process`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    /// The same name, ignoring ASCII case.
    Exact,
    /// The name is `--process` with `.exe` added: `game` finds `Game.exe`.
    WithExe,
}

/// How `name` matches `requested` (trimmed), if it does.
fn name_matches(name: &str, requested: &str) -> Option<Match> {
    if name.eq_ignore_ascii_case(requested) {
        Some(Match::Exact)
    } else if name.len() == requested.len() + 4
        && name
            .get(..requested.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(requested))
        && name
            .get(requested.len()..)
            .is_some_and(|end| end.eq_ignore_ascii_case(".exe"))
    {
        Some(Match::WithExe)
    } else {
        None
    }
}

/// Chooses the swap chain of `application` to use: `requested` (`ADDR`, or `ADDR@PID`
/// where processes share the address), else the one with the most rows, said in a note
/// when there are several. A file without a swap chain column has one per process (one,
/// without a process column), whose rows are used as they are.
pub(super) fn choose_swap_chain(
    application: &Application,
    requested: Option<&str>,
    origin: &str,
    notes: &mut Vec<String>,
) -> Result<usize, TraceError> {
    // Swap chains per address: more than one means processes share it.
    let mut at_address: HashMap<Option<&str>, usize> = HashMap::new();
    for chain in &application.swap_chains {
        *at_address.entry(chain.address.as_deref()).or_default() += 1;
    }
    let labels: Vec<String> = application
        .swap_chains
        .iter()
        .map(|chain| label(chain, at_address[&chain.address.as_deref()] > 1))
        .collect();
    let chains: Vec<(&str, usize)> = labels
        .iter()
        .zip(&application.swap_chains)
        .map(|(label, chain)| (label.as_str(), chain.rows))
        .collect();
    let name = shown(&application.name);
    if let Some(requested) = requested {
        let (address, process) = match requested.rsplit_once('@') {
            Some((address, process)) => (address, Some(process.trim())),
            None => (requested, None),
        };
        let matching: Vec<usize> = application
            .swap_chains
            .iter()
            .enumerate()
            .filter(|(_, chain)| {
                chain
                    .address
                    .as_deref()
                    .is_some_and(|chain| same_swap_chain(chain, address))
                    && process.is_none_or(|process| chain.process.as_deref() == Some(process))
            })
            .map(|(index, _)| index)
            .collect();
        let Some(&most) = matching
            .iter()
            .max_by_key(|&&index| (chains[index].1, std::cmp::Reverse(index)))
        else {
            return Err(TraceError::UnknownSwapChain {
                origin: origin.to_owned(),
                application: name.clone(),
                requested: shown(requested),
                available: if application.swap_chains.iter().all(|c| c.address.is_none()) {
                    "none (the file has no SwapChainAddress column)".to_owned()
                } else {
                    list(&chains, None)
                },
            });
        };
        if matching.len() > 1 {
            let others: Vec<(&str, usize)> = matching
                .iter()
                .filter(|&&index| index != most)
                .map(|&index| chains[index])
                .collect();
            notes.push(format!(
                "{origin}: {} is the address of {} processes' swap chains, each measured on \
                 its own as PresentMon does: using {} ({} rows); also {}; choose one with \
                 --swap-chain ADDR@PID",
                shown(requested),
                matching.len(),
                shown(chains[most].0),
                chains[most].1,
                list(&others, None)
            ));
        }
        return Ok(most);
    }
    let Some(most) = most_rows(&chains) else {
        return Ok(0);
    };
    if chains.len() > 1 {
        let (address, count) = (shown(chains[most].0), chains[most].1);
        notes.push(format!(
            "{origin}: using swap chain {address} of \"{name}\" ({count} rows), the one \
             with the most rows; also present: {}; PresentMon measures each swap chain on its \
             own, so only one is used; choose another with --swap-chain ADDR",
            list(&chains, Some(most))
        ));
    }
    Ok(most)
}

/// How notes name `chain`: its address, with `@PID` where another process of the
/// application has a swap chain at the same address (`shared`; without an address column,
/// the process alone where there are several).
fn label(chain: &SwapChain, shared: bool) -> String {
    match (&chain.address, &chain.process) {
        (Some(address), Some(process)) if shared => format!("{address}@{process}"),
        (Some(address), _) => address.clone(),
        (None, Some(process)) if shared => format!("process {process}"),
        (None, _) => String::new(),
    }
}

/// Whether two swap chain addresses are the same: equal ignoring ASCII case, or the same
/// number when both read as hexadecimal (`0x` prefix and leading zeros optional).
fn same_swap_chain(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
        || matches!((hex_address(a), hex_address(b)), (Some(a), Some(b)) if a == b)
}

/// A swap chain address read as a hexadecimal number, with or without `0x`.
fn hex_address(text: &str) -> Option<u128> {
    let text = text.trim();
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    // Leading zeros never overflow; more than 32 significant digits is no address.
    u128::from_str_radix(digits, 16).ok()
}

/// The entry (application or swap chain) with the most rows; the first one seen wins a tie.
fn most_rows(counts: &[(&str, usize)]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (index, (_, count)) in counts.iter().enumerate() {
        if best.is_none_or(|best| *count > counts[best].1) {
            best = Some(index);
        }
    }
    best
}

/// `a.exe (12 rows), b.exe (1 row)`, most rows first, leaving out `except`.
fn list(counts: &[(&str, usize)], except: Option<usize>) -> String {
    let mut others: Vec<&(&str, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != except)
        .map(|(_, entry)| entry)
        .collect();
    // Stable sort: equal counts keep file order.
    others.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    others
        .iter()
        .map(|(name, count)| {
            let plural = if *count == 1 { "" } else { "s" };
            format!("{} ({count} row{plural})", shown(name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
