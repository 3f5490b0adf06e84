//===- Module.cpp - tilec._tilec: the JIT for Python ----------------------===//
//
// The compiled half of the Python package: contexts, compiled programs and
// device tensors of the C++ JIT, with NumPy arrays in place of host tensors
// and exceptions in place of Expected. The package's Python half
// (tilec/__init__.py) adds what a NumPy user expects on top: positional
// and keyword arrays bound to the parameters, converted to their declared
// dtypes, one array or a tuple back. Which program runs for a combination
// of dtypes and shapes is the C++ jit::Function's business.
//
// Device work (opening a device, compiling, running, reading back) runs with
// the GIL released, so other Python threads go on meanwhile. A run streamed
// through the device draws the tools' progress bar on the process's stderr
// where that is a terminal (ProgressBar.h; docs/python.md says why a
// notebook shows none).
//
//===----------------------------------------------------------------------===//

#include "Arrays.h"
#include "Errors.h"
#include "ProgressBar.h"

#include "tilec/Runtime/Plural.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <variant>

namespace py = pybind11;
using namespace tilec;
using namespace tilec::python;

namespace {

Backend backendNamed(const std::string &name) {
  std::optional<Backend> backend = parseBackend(name);
  if (!backend)
    raiseInvalidArgument("unknown backend '" + name +
                         "' (expected opencl or vulkan)");
  return *backend;
}

DType dtypeNamed(const std::string &name) {
  std::optional<DType> dtype = parseDType(name);
  if (!dtype)
    raiseInvalidArgument("unknown dtype '" + name + "'");
  return *dtype;
}

py::tuple shapeTuple(const Shape &shape) {
  py::tuple tuple(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    tuple[i] = shape[i];
  return tuple;
}

/// A tensor in device memory (it keeps its device alive: docs/jit.md).
struct PyDeviceTensor {
  std::shared_ptr<DeviceTensor> tensor;

  py::array numpy() const {
    Expected<HostTensor> host = [&] {
      py::gil_scoped_release release;
      return tensor->read();
    }();
    if (!host)
      raiseError(jit::Error(jit::ErrorKind::Device, host.error().message()));
    return toArray(std::move(*host));
  }
};

py::list tensorInfos(const std::vector<jit::TensorInfo> &infos) {
  py::list list;
  for (const jit::TensorInfo &info : infos)
    list.append(py::make_tuple(info.name, dtypeName(info.dtype),
                               shapeTuple(info.shape)));
  return list;
}

/// The inputs of one run: host tensors (owned here) or device tensors.
struct RunArguments {
  std::vector<HostTensor> hostTensors;
  std::vector<std::optional<size_t>> hostIndex;
  std::vector<std::shared_ptr<const DeviceTensor>> deviceTensors;
  bool anyOnDevice = false;

  RunArguments(const jit::CompiledProgram &program, const py::list &args) {
    const std::vector<jit::TensorInfo> &inputs = program.inputs();
    if (args.size() != inputs.size())
      raiseInvalidArgument("'" + program.function() + "' takes " +
                           pluralize(inputs.size(), "input") + ", got " +
                           std::to_string(args.size()));
    hostTensors.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      py::handle arg = args[i];
      if (py::isinstance<PyDeviceTensor>(arg)) {
        deviceTensors.push_back(arg.cast<const PyDeviceTensor &>().tensor);
        hostIndex.push_back(std::nullopt);
        anyOnDevice = true;
        continue;
      }
      if (!py::isinstance<py::array>(arg))
        raiseInvalidArgument("input '" + inputs[i].name +
                             "' is neither a NumPy array nor a DeviceTensor");
      hostTensors.push_back(toHostTensor(py::reinterpret_borrow<py::array>(arg),
                                         inputs[i].dtype, inputs[i].name));
      deviceTensors.push_back(nullptr);
      hostIndex.push_back(hostTensors.size() - 1);
    }
  }

  std::vector<RunInput> runInputs() const {
    std::vector<RunInput> runInputs;
    for (size_t i = 0; i < hostIndex.size(); ++i) {
      if (hostIndex[i])
        runInputs.emplace_back(&hostTensors[*hostIndex[i]]);
      else
        runInputs.emplace_back(deviceTensors[i]);
    }
    return runInputs;
  }
};

std::vector<std::shared_ptr<DeviceTensor>>
runOnDevice(const jit::CompiledProgram &program, const RunArguments &args) {
  std::vector<RunInput> inputs = args.runInputs();
  jit::Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs = [&] {
    py::gil_scoped_release release;
    ProgressBar bar("device");
    return program.runOnDevice(
        inputs, [&](size_t done, size_t total) { bar.update(done, total); });
  }();
  return valueOrRaise(std::move(outputs));
}

/// Runs `program` and returns its outputs as NumPy arrays; with any input on
/// the device, through runOnDevice and a read of each output.
py::list run(const jit::CompiledProgram &program, const py::list &arguments) {
  RunArguments args(program, arguments);
  py::list result;
  if (args.anyOnDevice) {
    for (std::shared_ptr<DeviceTensor> &output : runOnDevice(program, args))
      result.append(PyDeviceTensor{std::move(output)}.numpy());
    return result;
  }
  jit::Expected<std::vector<HostTensor>> outputs = [&] {
    py::gil_scoped_release release;
    ProgressBar bar("device");
    return program.run(args.hostTensors, [&](size_t done, size_t total) {
      bar.update(done, total);
    });
  }();
  for (HostTensor &output : valueOrRaise(std::move(outputs)))
    result.append(toArray(std::move(output)));
  return result;
}

py::list runKeepingOutputs(const jit::CompiledProgram &program,
                           const py::list &arguments) {
  RunArguments args(program, arguments);
  py::list result;
  for (std::shared_ptr<DeviceTensor> &output : runOnDevice(program, args))
    result.append(PyDeviceTensor{std::move(output)});
  return result;
}

jit::Context createContext(const std::string &backend,
                           const std::string &device,
                           const std::optional<std::string> &cacheDirectory,
                           bool diskCache,
                           const std::optional<std::string> &profileOverrides) {
  jit::ContextOptions options;
  options.backend = backendNamed(backend);
  options.device = device;
  options.cache.diskEnabled = diskCache;
  if (cacheDirectory)
    options.cache.directory = *cacheDirectory;
  if (profileOverrides)
    options.profileOverrides = *profileOverrides;
  jit::Expected<jit::Context> context = [&] {
    py::gil_scoped_release release;
    return jit::Context::create(options);
  }();
  return valueOrRaise(std::move(context));
}

jit::Function load(const jit::Context &context, const std::string &text,
                   const std::string &entry, const std::string &sourceName) {
  return valueOrRaise(context.load(text, entry, sourceName));
}

/// The function's program for inputs of `types`, a list of (dtype name,
/// shape), one per parameter.
jit::CompiledProgram specialize(const jit::Function &function,
                                const py::list &types) {
  std::vector<jit::InputType> inputTypes;
  for (py::handle type : types) {
    auto [dtype, shape] = type.cast<std::tuple<std::string, Shape>>();
    inputTypes.push_back({dtypeNamed(dtype), shape});
  }
  jit::Expected<jit::CompiledProgram> program = [&] {
    py::gil_scoped_release release;
    return function.specialize(inputTypes);
  }();
  return valueOrRaise(std::move(program));
}

/// (name, [(parameter, declared rank or None)], [result]).
py::tuple signatureTuple(const jit::Function &function) {
  const jit::FunctionSignature &signature = function.signature();
  py::list parameters;
  for (const jit::ParameterInfo &parameter : signature.parameters)
    parameters.append(py::make_tuple(parameter.name,
                                     parameter.rank ? py::cast(*parameter.rank)
                                                    : py::none()));
  return py::make_tuple(signature.name, parameters,
                        py::cast(signature.results));
}

py::list listDevices(const std::string &backend) {
  Backend chosen = backendNamed(backend);
  jit::Expected<std::vector<jit::DeviceInfo>> devices = [&] {
    py::gil_scoped_release release;
    return jit::listDevices(chosen);
  }();
  py::list list;
  for (const jit::DeviceInfo &device : valueOrRaise(std::move(devices)))
    list.append(py::make_tuple(device.index, device.platform,
                               device.profile.name, device.isDefault,
                               profileToJson(device.profile)));
  return list;
}

} // namespace

PYBIND11_MODULE(_tilec, m) {
  m.doc() = "tilec's JIT (the compiled half of the tilec package)";

  py::class_<PyDeviceTensor>(m, "DeviceTensor")
      .def_property_readonly("dtype",
                             [](const PyDeviceTensor &self) {
                               return dtypeName(self.tensor->dtype());
                             })
      .def_property_readonly("shape",
                             [](const PyDeviceTensor &self) {
                               return shapeTuple(self.tensor->shape());
                             })
      .def_property_readonly("backend",
                             [](const PyDeviceTensor &self) {
                               return backendName(self.tensor->backend());
                             })
      .def("numpy", &PyDeviceTensor::numpy)
      // np.asarray(tensor) reads it back too.
      .def(
          "__array__",
          [](const PyDeviceTensor &self, py::object dtype) {
            py::array array = self.numpy();
            return dtype.is_none() ? array
                                   : py::array(array.attr("astype")(dtype));
          },
          py::arg("dtype") = py::none())
      .def("__repr__", [](const PyDeviceTensor &self) {
        std::string shape;
        for (int64_t extent : self.tensor->shape())
          shape += (shape.empty() ? "" : ", ") + std::to_string(extent);
        return std::string("<tilec.DeviceTensor ") +
               dtypeName(self.tensor->dtype()) + "[" + shape + "] on " +
               backendName(self.tensor->backend()) + ">";
      });

  py::class_<jit::CompiledProgram>(m, "Program")
      .def_property_readonly("function", &jit::CompiledProgram::function)
      .def_property_readonly("inputs",
                             [](const jit::CompiledProgram &self) {
                               return tensorInfos(self.inputs());
                             })
      .def_property_readonly("outputs",
                             [](const jit::CompiledProgram &self) {
                               return tensorInfos(self.outputs());
                             })
      .def_property_readonly(
          "kernels",
          [](const jit::CompiledProgram &self) {
            py::list list;
            for (const jit::KernelDescription &kernel : self.kernels())
              list.append(py::make_tuple(kernel.name, kernel.sourceLocation,
                                         kernel.flops, kernel.bytes));
            return list;
          })
      .def_property_readonly("schedule", &jit::CompiledProgram::schedule)
      .def_property_readonly("origin",
                             [](const jit::CompiledProgram &self) {
                               return jit::programOriginName(self.origin());
                             })
      .def("run", &run)
      .def("run_on_device", &runKeepingOutputs);

  py::class_<jit::Context>(m, "Context")
      .def(py::init(&createContext))
      .def_property_readonly(
          "backend",
          [](const jit::Context &self) { return backendName(self.backend()); })
      .def_property_readonly("profile",
                             [](const jit::Context &self) {
                               return profileToJson(self.deviceProfile());
                             })
      .def("load", &load)
      .def("cache_stats", [](const jit::Context &self) {
        jit::CacheStats stats = self.cacheStats();
        py::dict dict;
        dict["directory"] = stats.directory;
        dict["memory_hits"] = stats.memoryHits;
        dict["disk_hits"] = stats.diskHits;
        dict["misses"] = stats.misses;
        dict["rejected_entries"] = stats.rejectedEntries;
        dict["stores"] = stats.stores;
        dict["store_failures"] = stats.storeFailures;
        dict["evictions"] = stats.evictions;
        return dict;
      });

  py::class_<jit::Function>(m, "Function")
      .def_property_readonly("signature", &signatureTuple)
      .def_property_readonly("specialization_count",
                             &jit::Function::specializationCount)
      .def("specialize", &specialize);

  m.def("list_devices", &listDevices);
}
