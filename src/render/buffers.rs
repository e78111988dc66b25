//! GPU buffers the renderers share: ones that grow with the frame's contents, and ones
//! uploaded once.

/// A GPU buffer that grows (to the next power of two) when more is needed, and is reused
/// otherwise.
pub(crate) struct GrowingBuffer {
    /// The current buffer.
    pub(crate) buffer: wgpu::Buffer,
    /// Debug label, reused for replacement buffers.
    label: &'static str,
    /// Usages of the buffer, besides the `COPY_DST` always added.
    usage: wgpu::BufferUsages,
}

impl GrowingBuffer {
    /// A buffer of `size` bytes (at least the copy alignment) for `usage`.
    pub(crate) fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        size: u64,
    ) -> Self {
        Self {
            buffer: create_buffer(device, label, usage, size),
            label,
            usage,
        }
    }

    /// Makes room for `size` bytes; true when the buffer was replaced.
    pub(crate) fn reserve(&mut self, device: &wgpu::Device, size: u64) -> bool {
        if size <= self.buffer.size() {
            return false;
        }
        let size = size.next_power_of_two();
        self.buffer = create_buffer(device, self.label, self.usage, size);
        true
    }
}

/// A buffer of `size` bytes (at least the copy alignment), writable from the queue.
fn create_buffer(
    device: &wgpu::Device,
    label: &'static str,
    usage: wgpu::BufferUsages,
    size: u64,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(wgpu::COPY_BUFFER_ALIGNMENT),
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A buffer holding `contents`, created already filled.
pub(crate) fn upload(
    device: &wgpu::Device,
    label: &'static str,
    usage: wgpu::BufferUsages,
    contents: &[u8],
) -> wgpu::Buffer {
    use wgpu::util::DeviceExt as _;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage,
    })
}
