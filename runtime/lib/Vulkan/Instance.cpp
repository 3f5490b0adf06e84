//===- Instance.cpp - The Vulkan instance and its validation --------------===//

#include "Failure.h"
#include "Structure.h"

#include <cstdlib>
#include <cstring>

using namespace tilec;
using namespace tilec::vulkan;

static const char *const kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool Instance::validationRequested() {
  const char *value = std::getenv(kValidationVariable);
  return value && std::string_view(value) == "1";
}

/// Records what the validation layer reports in the Instance it was
/// registered with.
static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *instance) {
  std::string text = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                         ? "error: "
                         : "warning: ";
  text += data && data->pMessage ? data->pMessage : "(no message)";
  static_cast<Instance *>(instance)->recordValidationMessage(std::move(text));
  // Never abort the call that provoked it: the caller reports the failure.
  return VK_FALSE;
}

static bool hasLayer(const char *name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS)
    return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS)
    return false;
  for (const VkLayerProperties &layer : layers)
    if (std::strcmp(layer.layerName, name) == 0)
      return true;
  return false;
}

Expected<std::shared_ptr<Instance>> Instance::create(bool validation) {
  if (validation && !hasLayer(kValidationLayer))
    return Error(std::string(kValidationVariable) + "=1 asks for " +
                 kValidationLayer +
                 ", which the Vulkan loader does not find (is "
                 "vulkan-validationlayers installed?)");
  auto application =
      makeStructure<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "tilec";
  application.pEngineName = "tilec";
  // Vulkan 1.2 for the 1.2 feature and property structures; devices of
  // older versions are queried with what they offer.
  application.apiVersion = VK_API_VERSION_1_2;
  const char *layers[] = {kValidationLayer};
  const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  auto info = makeStructure<VkInstanceCreateInfo>(
      VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &application;
  if (validation) {
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = layers;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = extensions;
  }
  VkInstance handle = VK_NULL_HANDLE;
  VkResult result = vkCreateInstance(&info, nullptr, &handle);
  // The loader's answer when it finds no driver: a machine without Vulkan
  // devices, which the caller reports.
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return std::shared_ptr<Instance>();
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating a Vulkan instance");
  std::shared_ptr<Instance> instance(new Instance(handle));
  if (!validation)
    return instance;

  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(handle, "vkCreateDebugUtilsMessengerEXT"));
  if (!createMessenger)
    return Error("the Vulkan loader lacks vkCreateDebugUtilsMessengerEXT, "
                 "which validation needs");
  auto messengerInfo = makeStructure<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = onValidationMessage;
  messengerInfo.pUserData = instance.get();
  result =
      createMessenger(handle, &messengerInfo, nullptr, &instance->messenger);
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating the Vulkan validation messenger");
  return instance;
}

Instance::~Instance() {
  if (messenger != VK_NULL_HANDLE) {
    auto destroyMessenger =
        reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroyMessenger)
      destroyMessenger(instance, messenger, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
}

std::vector<std::string> Instance::takeValidationMessages() {
  std::lock_guard<std::mutex> guard(messagesLock);
  return std::exchange(messages, {});
}

void Instance::recordValidationMessage(std::string message) {
  std::lock_guard<std::mutex> guard(messagesLock);
  messages.push_back(std::move(message));
}
