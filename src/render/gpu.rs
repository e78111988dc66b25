//! The wgpu instance, adapter, device and queue, for a window or for headless rendering.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::options::GpuBackend;

/// Why no GPU context could be made.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter on any enabled backend. (wgpu's words are the source: a message printed
    /// with its causes says them once, after the remedy.)
    #[error(
        "no GPU adapter found (tried backends {backends:?}); {}",
        no_adapter_remedy()
    )]
    NoAdapter {
        /// The backends the instance enabled.
        backends: wgpu::Backends,
        /// What wgpu said.
        source: wgpu::RequestAdapterError,
    },
    /// `WGPU_ADAPTER_NAME` named an adapter that is not there.
    #[error("no GPU adapter matches WGPU_ADAPTER_NAME={wanted:?}; available: {available}")]
    AdapterNotFound {
        /// The requested name (a case-insensitive substring).
        wanted: String,
        /// Summaries of the adapters that exist.
        available: String,
    },
    /// `--backend` named a graphics API this machine has no adapter for.
    #[error(
        "--backend {wanted}: this machine has no {} adapter{for_window}; it has {available}",
        wanted.name()
    )]
    BackendMissing {
        /// The backend asked for.
        wanted: GpuBackend,
        /// " that can draw into the window" when a window's surface was asked about.
        for_window: &'static str,
        /// The adapters that exist on every backend, each with its backend, or what to
        /// install when there is none.
        available: String,
    },
    /// The adapter refused to create a device.
    #[error("the GPU adapter {adapter} could not create a device: {source}")]
    Device {
        /// Summary of the adapter.
        adapter: String,
        /// What wgpu said.
        source: wgpu::RequestDeviceError,
    },
}

/// Everything needed to render: instance, adapter, device and queue.
#[derive(Debug)]
pub struct GpuContext {
    /// The wgpu instance.
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device every resource is created on.
    pub device: wgpu::Device,
    /// The queue work is submitted to.
    pub queue: wgpu::Queue,
    /// Errors the device reported that nobody caught (each was printed to stderr).
    uncaptured_errors: Arc<AtomicU64>,
    /// Why the device was lost, once it is: a lost device draws nothing and answers nothing,
    /// and a browser may lose it on its own (Chromium's WebGPU on SwiftShader without
    /// Vulkan, docs/web.md).
    lost: Arc<std::sync::Mutex<Option<String>>>,
}

impl GpuContext {
    /// A context with no window: instance options from the environment (`WGPU_BACKEND` and
    /// friends), the adapter named by `WGPU_ADAPTER_NAME` if set, else the default one
    /// (`WGPU_POWER_PREF` honoured).
    pub fn headless(backend: Option<GpuBackend>) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(with_backend(
            wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
            backend,
        ));
        let adapter = pollster::block_on(request_adapter(&instance, None, backend))?;
        pollster::block_on(Self::with_adapter(instance, adapter))
    }

    /// Creates the device on `adapter` and installs the error logger.
    pub async fn with_adapter(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
    ) -> Result<Self, GpuError> {
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("timestep-lab device"),
                required_limits: device_limits(&adapter),
                ..Default::default()
            })
            .await
            .map_err(|source| GpuError::Device {
                adapter: adapter_summary(&adapter.get_info()),
                source,
            })?;
        let uncaptured_errors = log_uncaptured_errors(&device);
        let lost = Arc::new(std::sync::Mutex::new(None));
        let noted = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            let why = match reason {
                wgpu::DeviceLostReason::Destroyed => format!("destroyed: {message}"),
                wgpu::DeviceLostReason::Unknown => message,
            };
            if let Ok(mut lost) = noted.lock() {
                lost.get_or_insert(why);
            }
        });
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            uncaptured_errors,
            lost,
        })
    }

    /// Whether a texture may be viewed in a format other than its own
    /// (`DownlevelFlags::VIEW_FORMATS`). GL cannot: there the panel is drawn through the
    /// sRGB target itself.
    pub fn views_other_formats(&self) -> bool {
        self.adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::VIEW_FORMATS)
    }

    /// The formats an offscreen frame of `format` is drawn through: the scene through
    /// `format`, the panel through its non-sRGB twin where the adapter lets a texture be
    /// viewed so ([`Self::views_other_formats`]), else through `format` too.
    pub fn frame_formats(
        &self,
        format: wgpu::TextureFormat,
    ) -> (wgpu::TextureFormat, wgpu::TextureFormat) {
        let reinterpret = format.is_srgb() && self.views_other_formats();
        (format, super::ui_view_format(format, reinterpret))
    }

    /// `wanted` MSAA samples where the adapter offers them for a colour target of `format`
    /// (and its resolve) and for the depth buffer, else the most it offers below that
    /// (one sample always works).
    pub fn sample_count(&self, format: wgpu::TextureFormat, wanted: u32) -> u32 {
        let colour = self.adapter.get_texture_format_features(format).flags;
        let depth = self
            .adapter
            .get_texture_format_features(super::DEPTH_FORMAT)
            .flags;
        let offered = |count: u32| {
            count == 1
                || (colour.sample_count_supported(count)
                    && colour.contains(wgpu::TextureFormatFeatureFlags::MULTISAMPLE_RESOLVE)
                    && depth.sample_count_supported(count))
        };
        [16, 8, 4, 2, 1]
            .into_iter()
            .filter(|&count| count <= wanted.max(1))
            .find(|&count| offered(count))
            .unwrap_or(1)
    }

    /// Why the device was lost, if it was: nothing drawn or measured after that is real.
    pub fn lost(&self) -> Option<String> {
        self.lost.lock().ok().and_then(|lost| lost.clone())
    }

    /// How many validation or out-of-memory errors the device has reported that no error
    /// scope caught. Tests assert it stays zero.
    pub fn uncaptured_error_count(&self) -> u64 {
        self.uncaptured_errors.load(Ordering::Relaxed)
    }
}

/// The limits the lab's device asks for: the downlevel ones every native adapter meets
/// (WebGL2's where the adapter has no compute shaders: GL ES 3.0 and WebGL2), with the
/// adapter's own texture size, so a window as large as it allows can be drawn.
fn device_limits(adapter: &wgpu::Adapter) -> wgpu::Limits {
    let compute = adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS);
    let limits = if compute {
        wgpu::Limits::downlevel_defaults()
    } else {
        wgpu::Limits::downlevel_webgl2_defaults()
    };
    limits.using_resolution(adapter.limits())
}

/// The wgpu backend of `backend`.
fn wgpu_backends(backend: GpuBackend) -> wgpu::Backends {
    match backend {
        GpuBackend::Vulkan => wgpu::Backends::VULKAN,
        GpuBackend::Dx12 => wgpu::Backends::DX12,
        GpuBackend::Metal => wgpu::Backends::METAL,
        GpuBackend::Gl => wgpu::Backends::GL,
        GpuBackend::WebGpu => wgpu::Backends::BROWSER_WEBGPU,
    }
}

/// `descriptor` (made from the environment) with only `backend` enabled when `--backend`
/// named one; otherwise as `WGPU_BACKEND` (or wgpu's default, every backend) left it.
pub fn with_backend(
    mut descriptor: wgpu::InstanceDescriptor,
    backend: Option<GpuBackend>,
) -> wgpu::InstanceDescriptor {
    if let Some(backend) = backend {
        descriptor.backends = wgpu_backends(backend);
    }
    descriptor
}

/// What to do when no adapter exists, in the platform's own terms.
fn no_adapter_remedy() -> &'static str {
    if cfg!(windows) {
        "install or update the GPU's driver (from its maker or Windows Update), or try \
         --backend gl"
    } else if cfg!(target_os = "macos") {
        "the lab draws with Metal, which every Mac since 2012 with macOS 10.14 or later has"
    } else {
        "install mesa-vulkan-drivers for software rendering (Mesa's lavapipe), or try \
         --backend gl (Mesa's llvmpipe through EGL)"
    }
}

/// Every adapter on every backend this build has, or what to install when there is none:
/// what a refused `--backend` names.
async fn every_adapter() -> String {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::all(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
    adapter_list(&adapters).unwrap_or_else(|| format!("none at all: {}", no_adapter_remedy()))
}

/// `adapters` in words, one [`adapter_summary`] each; `None` when there is none.
fn adapter_list(adapters: &[wgpu::Adapter]) -> Option<String> {
    let summaries: Vec<String> = adapters
        .iter()
        .map(|adapter| adapter_summary(&adapter.get_info()))
        .collect();
    (!summaries.is_empty()).then(|| summaries.join(", "))
}

/// The adapter named by `WGPU_ADAPTER_NAME` (a case-insensitive substring), else the default
/// adapter for `compatible_surface`; `backend` is the one `--backend` asked for (the
/// instance enables only it), named in the error when it has no adapter.
pub async fn request_adapter(
    instance: &wgpu::Instance,
    compatible_surface: Option<&wgpu::Surface<'_>>,
    backend: Option<GpuBackend>,
) -> Result<wgpu::Adapter, GpuError> {
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        // The instance enables only the backends asked for, so these are all it may use.
        let mut adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
        let wanted_lower = wanted.to_lowercase();
        let matching = adapters.iter().position(|adapter| {
            let supported =
                compatible_surface.is_none_or(|surface| adapter.is_surface_supported(surface));
            supported
                && adapter
                    .get_info()
                    .name
                    .to_lowercase()
                    .contains(&wanted_lower)
        });
        return match matching {
            Some(index) => Ok(adapters.swap_remove(index)),
            None => Err(GpuError::AdapterNotFound {
                wanted,
                available: adapter_list(&adapters).unwrap_or_else(|| "none".to_owned()),
            }),
        };
    }
    let found = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
            force_fallback_adapter: false,
            compatible_surface,
            apply_limit_buckets: false,
        })
        .await;
    match (found, backend) {
        (Ok(adapter), _) => Ok(adapter),
        (Err(_), Some(wanted)) => Err(GpuError::BackendMissing {
            wanted,
            for_window: if compatible_surface.is_some() {
                " that can draw into the window"
            } else {
                ""
            },
            available: every_adapter().await,
        }),
        (Err(source), None) => Err(GpuError::NoAdapter {
            backends: wgpu::Backends::from_env().unwrap_or_default(),
            source,
        }),
    }
}

/// Sends validation and out-of-memory errors the application did not catch to stderr
/// instead of wgpu's default panic, and counts them: logged, never hidden.
pub fn log_uncaptured_errors(device: &wgpu::Device) -> Arc<AtomicU64> {
    let count = Arc::new(AtomicU64::new(0));
    let handler_count = Arc::clone(&count);
    device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
        handler_count.fetch_add(1, Ordering::Relaxed);
        // A page's standard error goes nowhere: its errors are read in the console.
        #[cfg(target_arch = "wasm32")]
        web_sys::console::error_1(&format!("timestep-lab: wgpu error: {error}").into());
        #[cfg(not(target_arch = "wasm32"))]
        eprintln!("timestep-lab: wgpu error: {error}");
    }));
    count
}

/// An error the device reported, in one line with all its causes: wgpu's own text of an
/// out-of-memory error leaves out what ran out, and that of a validation error spans many
/// lines.
#[derive(Debug)]
pub struct DeviceError(pub wgpu::Error);

impl std::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, source) = match &self.0 {
            wgpu::Error::OutOfMemory { source } => ("out of GPU memory", source),
            wgpu::Error::Validation { source, .. } => ("validation error", source),
            wgpu::Error::Internal { source, .. } => ("internal GPU error", source),
        };
        write!(f, "{kind}")?;
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(source.as_ref());
        while let Some(error) = cause {
            write!(f, ": {error}")?;
            cause = error.source();
        }
        Ok(())
    }
}

// No `source`: the text has every cause already.
impl std::error::Error for DeviceError {}

/// Catches every error the device reports on this thread (validation, out of memory,
/// internal) from [`Self::push`] until [`Self::pop`], instead of the uncaptured-error
/// handler: the caller decides what a failure means, once.
///
/// wgpu scopes are a per-thread stack; a scope dropped without `pop` is popped and its
/// errors discarded. On a page nothing may wait for the GPU's answer (the browser gives it
/// on its event loop, which a wait would block for good): there no scope is pushed, and an
/// error goes to the uncaptured-error handler, which says it in the console.
#[must_use = "pop the scope to learn whether the work failed"]
pub struct ErrorScope {
    // Declared in the reverse of the push order, so that an early drop pops them in the
    // order wgpu requires (last pushed, first popped).
    /// Internal errors (pushed last).
    #[cfg(not(target_arch = "wasm32"))]
    internal: wgpu::ErrorScopeGuard,
    /// Out-of-memory errors.
    #[cfg(not(target_arch = "wasm32"))]
    out_of_memory: wgpu::ErrorScopeGuard,
    /// Validation errors (pushed first).
    #[cfg(not(target_arch = "wasm32"))]
    validation: wgpu::ErrorScopeGuard,
}

impl ErrorScope {
    /// Starts catching `device`'s errors on this thread.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn push(device: &wgpu::Device) -> Self {
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out_of_memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
        Self {
            internal,
            out_of_memory,
            validation,
        }
    }

    /// On a page: catches nothing (see the type's documentation).
    #[cfg(target_arch = "wasm32")]
    pub fn push(_device: &wgpu::Device) -> Self {
        Self {}
    }

    /// Stops catching; returns the error the work in between caused, if any. When several
    /// kinds were caught, the likely cause wins: running out of memory (the validation
    /// errors that follow it are about the objects it could not create), then an internal
    /// error, then a validation error.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn pop(self) -> Result<(), DeviceError> {
        let internal = pollster::block_on(self.internal.pop());
        let out_of_memory = pollster::block_on(self.out_of_memory.pop());
        let validation = pollster::block_on(self.validation.pop());
        match out_of_memory.or(internal).or(validation) {
            Some(error) => Err(DeviceError(error)),
            None => Ok(()),
        }
    }

    /// On a page: nothing was caught (see the type's documentation).
    #[cfg(target_arch = "wasm32")]
    pub fn pop(self) -> Result<(), DeviceError> {
        Ok(())
    }
}

/// Runs `work` inside an [`ErrorScope`] on `device`: its result, or the first error it
/// caused.
pub fn catch_errors<T>(device: &wgpu::Device, work: impl FnOnce() -> T) -> Result<T, DeviceError> {
    let scope = ErrorScope::push(device);
    let value = work();
    scope.pop().map(|()| value)
}

/// A one-line description of an adapter, e.g. "llvmpipe (Vulkan, Cpu)".
pub fn adapter_summary(info: &wgpu::AdapterInfo) -> String {
    // A browser names no adapter to a page.
    let name = if info.name.is_empty() {
        "unnamed adapter"
    } else {
        &info.name
    };
    format!("{name} ({:?}, {:?})", info.backend, info.device_type)
}
